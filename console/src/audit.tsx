import { useEffect, useRef, useState } from 'preact/hooks';
import { type AuditEvent, type AuditFilters, api, loadStores, type Store, userName } from './api';
import { dateRange, duration, num, when } from './format';
import { type MessageKey, t } from './i18n';
import type { Live } from './live';
import { DateField, fieldId, Pager, StoreSelect } from './ui';

const KINDS: AuditEvent['kind'][] = [
  'control.created',
  'control.verified',
  'control.rejected',
  'store.created',
  'store.updated',
  'store.hours_updated',
  'role.granted',
  'role.revoked',
  'checkout.confirmed',
];
const kindLabel = (kind: AuditEvent['kind']) => t(`audit.kind.${kind}`);

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const FIELDS = [
  'name',
  'active_period',
  'carts_for_random_control',
  'status',
  'verified_at',
  'is_staff',
  'is_admin',
  'order_number',
];

/** A field's name for people: known fields and weekdays translated, others as they are. */
function fieldName(field: string): string {
  if (FIELDS.includes(field)) return t(`audit.field.${field}` as MessageKey);
  if (DAYS.includes(field)) return t(`day.${field}` as MessageKey);
  return field;
}

/** A recorded value, formatted for the locale: times, durations, counts, yes/no, hours. */
function value(field: string, raw: unknown): string {
  if (raw === null || raw === undefined) return DAYS.includes(field) ? t('audit.closed') : '—';
  if (typeof raw === 'boolean') return t(raw ? 'yes' : 'no');
  if (typeof raw === 'number') return num(raw);
  if (Array.isArray(raw))
    return raw.map((v) => (typeof v === 'number' ? `#${v}` : String(v))).join(', ');
  if (typeof raw === 'object') {
    const { opening_time: open, closing_time: close } = raw as Record<string, string | null>;
    if (open !== undefined || close !== undefined)
      return open && close ? `${open.slice(0, 5)}–${close.slice(0, 5)}` : t('audit.closed');
    return JSON.stringify(raw);
  }
  const text = String(raw);
  if (field === 'active_period' && /^\d+:\d\d:\d\d$/.test(text)) return duration(text);
  if (field === 'status' && (text === 'pending' || text === 'verified'))
    return t(`audit.status.${text}`);
  if (/^\d{4}-\d\d-\d\dT/.test(text)) return when(text);
  return text;
}

/** The changed fields as "Name: Bremen → Trade store Bremen" lines (not the controls' carts). */
function changes(event: AuditEvent): string[] {
  const before = event.before ?? {};
  const after = event.after ?? {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (f) => !['carts', 'is_random', 'controller'].includes(f),
  );
  // A control created or rejected: its status is in the sentence already.
  if (event.kind === 'control.created' || event.kind === 'control.rejected') return [];
  return fields.map((field) =>
    field in before && event.before
      ? t('audit.change', {
          field: fieldName(field),
          before: value(field, before[field]),
          after: field in after && event.after ? value(field, after[field]) : '—',
        })
      : t('audit.set', { field: fieldName(field), after: value(field, after[field]) }),
  );
}

/** An event as a sentence: "Carla Lindqvist verified control 124 of Bruno Berger (2 carts)." */
function sentence(event: AuditEvent, storeName: (gln: string | null) => string): string {
  const who = event.actor
    ? userName(event.actor)
    : event.via === 'random-draw'
      ? t('audit.randomDraw')
      : event.operator
        ? t('audit.adminCommandBy', { operator: event.operator })
        : t('audit.adminCommand');
  const customer = event.customer
    ? userName(event.customer)
    : event.user !== null
      ? t('audit.customerN', { id: event.user })
      : t('audit.someone');
  const carts = (event.after?.carts ?? event.before?.carts) as unknown;
  const count = Array.isArray(carts) ? carts.length : 0;
  const values = {
    who,
    customer,
    object: event.object === null ? '' : String(event.object),
    store: storeName(event.store),
    carts: count === 1 ? t('audit.cartsOne') : t('audit.cartsMany', { count: num(count) }),
  };
  if (event.kind === 'control.created' && event.via === 'random-draw')
    return t('audit.s.control.createdRandom', values);
  return t(`audit.s.${event.kind}`, values);
}

/** The audit trail (administrators): who did what, filtered by store, person, kind and date. */
export function AuditView({ live }: { live: Live }) {
  const [stores, setStores] = useState<Store[]>([]);
  const [gln, setGln] = useState('');
  const [actor, setActor] = useState('');
  const [kind, setKind] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const [events, setEvents] = useState<AuditEvent[]>([]);
  const [count, setCount] = useState(0);
  const [people, setPeople] = useState<Map<number, string>>(new Map());
  const latest = useRef(0);
  const [ids] = useState(() => ({
    store: fieldId('audit-store'),
    actor: fieldId('audit-actor'),
    kind: fieldId('audit-kind'),
  }));

  async function load() {
    const mine = ++latest.current;
    const query: AuditFilters = {
      page: String(page),
      page_size: '20',
      store: gln || undefined,
      actor: actor || undefined,
      kind: (kind || undefined) as AuditFilters['kind'],
      ...dateRange(from, to),
    };
    const { data } = await api.GET('/api/v1/audit-events/', { params: { query } });
    if (mine !== latest.current || !data) return;
    setEvents(data.results);
    setCount(data.count);
    setPeople((previous) => {
      const next = new Map(previous);
      for (const e of data.results) if (e.actor) next.set(e.actor.id, userName(e.actor));
      return next;
    });
  }

  useEffect(() => {
    loadStores().then(setStores);
  }, []);
  useEffect(() => {
    load();
  }, [gln, actor, kind, from, to, page, live.seq]);

  const storeName = (value: string | null) =>
    value === null ? '—' : (stores.find((s) => s.gln === value)?.name ?? value);
  const filter = (set: (value: string) => void) => (value: string) => {
    set(value);
    setPage(1);
  };
  const pages = Math.max(1, Math.ceil(count / 20));
  return (
    <section class="panel" aria-labelledby="audit-title">
      <h1 id="audit-title">{t('audit.title')}</h1>
      <form class="filters" onSubmit={(e) => e.preventDefault()} aria-label={t('audit.filters')}>
        <div class="field">
          <label for={ids.store}>{t('filter.store')}</label>
          <StoreSelect
            id={ids.store}
            stores={stores}
            value={gln}
            onChange={filter(setGln)}
            allLabel={t('filter.allStores')}
          />
        </div>
        <div class="field">
          <label for={ids.actor}>{t('audit.person')}</label>
          <select
            id={ids.actor}
            value={actor}
            onChange={(e) => filter(setActor)(e.currentTarget.value)}
          >
            <option value="">{t('audit.everyone')}</option>
            {[...people].map(([id, name]) => (
              <option key={id} value={String(id)}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for={ids.kind}>{t('audit.kind')}</label>
          <select
            id={ids.kind}
            value={kind}
            onChange={(e) => filter(setKind)(e.currentTarget.value)}
          >
            <option value="">{t('audit.allKinds')}</option>
            {KINDS.map((value) => (
              <option key={value} value={value}>
                {kindLabel(value)}
              </option>
            ))}
          </select>
        </div>
        <DateField label={t('filter.from')} value={from} onChange={filter(setFrom)} />
        <DateField label={t('filter.to')} value={to} onChange={filter(setTo)} />
      </form>
      {events.length === 0 ? (
        <p class="empty">{t('audit.none')}</p>
      ) : (
        <table class="audit">
          <caption class="visually-hidden">{t('audit.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('audit.col.when')}</th>
              <th scope="col">{t('audit.col.what')}</th>
              <th scope="col">{t('audit.col.store')}</th>
            </tr>
          </thead>
          <tbody>
            {events.map((event) => (
              <tr key={event.id} data-event={event.id} data-kind={event.kind}>
                <td class="when">{when(event.created)}</td>
                <td>
                  <span class="badge">{kindLabel(event.kind)}</span>
                  <p class="sentence">{sentence(event, storeName)}</p>
                  {changes(event).map((line) => (
                    <div class="sub" key={line}>
                      {line}
                    </div>
                  ))}
                </td>
                <td>{storeName(event.store)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager label={t('audit.pages')} page={page} pages={pages} count={count} onPage={setPage} />
    </section>
  );
}
