import { useEffect, useRef, useState } from 'preact/hooks';
import { type AuditEvent, type AuditFilters, api, loadStores, type Store } from './api';
import { dateRange, when } from './format';
import type { Live } from './live';
import { fieldId, Pager, StoreSelect } from './ui';

const KINDS: Record<AuditEvent['kind'], string> = {
  'control.created': 'Control created',
  'control.verified': 'Control verified',
  'control.rejected': 'Control rejected',
  'store.created': 'Store created',
  'store.updated': 'Store settings changed',
  'store.hours_updated': 'Store hours changed',
  'role.granted': 'Role granted',
  'role.revoked': 'Role revoked',
  'checkout.confirmed': 'Order confirmed by an operator',
};

/** `{a: 1, b: 2}` as `a: 1, b: 2`; nested values as JSON. */
function values(record: Record<string, unknown> | null): string {
  if (!record) return '—';
  return Object.entries(record)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
}

function who(event: AuditEvent): string {
  if (event.actor) return event.actor.username;
  if (event.via === 'random-draw') return 'random draw';
  return `admin command${event.operator ? ` (${event.operator})` : ''}`;
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
      for (const e of data.results) if (e.actor) next.set(e.actor.id, e.actor.username);
      return next;
    });
  }

  useEffect(() => {
    loadStores().then(setStores);
  }, []);
  useEffect(() => {
    load();
  }, [gln, actor, kind, from, to, page, live.seq]);

  const ids = {
    store: fieldId('audit-store'),
    actor: fieldId('audit-actor'),
    kind: fieldId('audit-kind'),
    from: fieldId('audit-from'),
    to: fieldId('audit-to'),
  };
  const filter = (set: (value: string) => void) => (value: string) => {
    set(value);
    setPage(1);
  };
  const pages = Math.max(1, Math.ceil(count / 20));
  return (
    <section class="panel" aria-labelledby="audit-title">
      <h1 id="audit-title">Audit trail</h1>
      <form class="filters" onSubmit={(e) => e.preventDefault()} aria-label="Audit filters">
        <div class="field">
          <label for={ids.store}>Store</label>
          <StoreSelect
            id={ids.store}
            stores={stores}
            value={gln}
            onChange={filter(setGln)}
            allLabel="All stores"
          />
        </div>
        <div class="field">
          <label for={ids.actor}>Person</label>
          <select
            id={ids.actor}
            value={actor}
            onChange={(e) => filter(setActor)(e.currentTarget.value)}
          >
            <option value="">Everyone</option>
            {[...people].map(([id, name]) => (
              <option key={id} value={String(id)}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for={ids.kind}>Kind</label>
          <select
            id={ids.kind}
            value={kind}
            onChange={(e) => filter(setKind)(e.currentTarget.value)}
          >
            <option value="">All kinds</option>
            {Object.entries(KINDS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for={ids.from}>From</label>
          <input
            id={ids.from}
            type="date"
            value={from}
            onChange={(e) => filter(setFrom)(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for={ids.to}>To</label>
          <input
            id={ids.to}
            type="date"
            value={to}
            onChange={(e) => filter(setTo)(e.currentTarget.value)}
          />
        </div>
      </form>
      {events.length === 0 ? (
        <p class="empty">No events match.</p>
      ) : (
        <table class="audit">
          <caption class="visually-hidden">Audit trail, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">Store</th>
              <th scope="col">Before</th>
              <th scope="col">After</th>
            </tr>
          </thead>
          <tbody>
            {events.map((event) => (
              <tr key={event.id} data-event={event.id}>
                <td>{when(event.created)}</td>
                <td>{who(event)}</td>
                <td>
                  {KINDS[event.kind]}
                  {event.object !== null && ` #${event.object}`}
                  {event.user !== null && <span class="sub"> customer #{event.user}</span>}
                </td>
                <td>{event.store ?? '—'}</td>
                <td>{values(event.before)}</td>
                <td>{values(event.after)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager
        label="Pages of the audit trail"
        page={page}
        pages={pages}
        count={count}
        noun="events"
        onPage={setPage}
      />
    </section>
  );
}
