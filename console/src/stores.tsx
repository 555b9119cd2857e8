import { useEffect, useState } from 'preact/hooks';
import { api, type ErrorBody, fieldErrors, loadStores, type Store, type StoreHour } from './api';
import { duration } from './format';
import { t } from './i18n';
import { FieldError, fieldId, Notice, StoreSelect } from './ui';

const DAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;
const label = (day: (typeof DAYS)[number]) => t(`day.${day}`);

/** Stores (staff): name, active period, random-control rate and opening hours. */
export function StoresView() {
  const [stores, setStores] = useState<Store[]>([]);
  const [gln, setGln] = useState('');
  const [selectId] = useState(() => fieldId('store'));

  useEffect(() => {
    loadStores().then((list) => {
      setStores(list);
      setGln((current) => current || list[0]?.gln || '');
    });
  }, []);
  const store = stores.find((s) => s.gln === gln);

  return (
    <>
      <section class="panel" aria-labelledby="stores-title">
        <h1 id="stores-title">{t('stores.title')}</h1>
        <div class="field">
          <label for={selectId}>{t('stores.store')}</label>
          <StoreSelect id={selectId} stores={stores} value={gln} onChange={setGln} />
        </div>
      </section>
      {store && (
        <StoreForm
          key={store.gln}
          store={store}
          onSaved={(saved) =>
            setStores((list) => list.map((s) => (s.gln === saved.gln ? saved : s)))
          }
        />
      )}
      {store && <HoursForm key={`hours-${store.gln}`} gln={store.gln} />}
    </>
  );
}

function StoreForm(props: { store: Store; onSaved: (store: Store) => void }) {
  const [name, setName] = useState(props.store.name);
  const [period, setPeriod] = useState(props.store.active_period);
  const [rate, setRate] = useState(String(props.store.carts_for_random_control));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState('');
  const [ids] = useState(() => ({
    name: fieldId('name'),
    period: fieldId('active-period'),
    rate: fieldId('random-rate'),
  }));

  async function submit(event: Event) {
    event.preventDefault();
    setSaved('');
    // A rate that is not a whole number is sent as typed: the API names the field.
    const count = /^\d+$/.test(rate.trim()) ? Number(rate) : (rate as unknown as number);
    const { data, error } = await api.PATCH('/api/v1/stores/{gln}/', {
      params: { path: { gln: props.store.gln } },
      body: { name, active_period: period, carts_for_random_control: count },
    });
    if (data) {
      setErrors({});
      setSaved(t('stores.saved'));
      props.onSaved(data);
    } else setErrors(fieldErrors(error as ErrorBody));
  }

  const described = (id: string, field: string) => (errors[field] ? `${id}-error` : `${id}-hint`);
  return (
    <section class="panel" aria-labelledby="store-form-title">
      <h2 id="store-form-title">
        {props.store.name} <span class="sub">{t('stores.gln', { gln: props.store.gln })}</span>
      </h2>
      <form class="stack" onSubmit={submit} noValidate>
        <div class="field">
          <label for={ids.name}>{t('stores.name')}</label>
          <input
            id={ids.name}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
            aria-invalid={!!errors.name}
            aria-describedby={described(ids.name, 'name')}
          />
          <FieldError id={`${ids.name}-error`} text={errors.name} />
        </div>
        <div class="field">
          <label for={ids.period}>{t('stores.period')}</label>
          <input
            id={ids.period}
            value={period}
            inputMode="numeric"
            onInput={(e) => setPeriod(e.currentTarget.value)}
            aria-invalid={!!errors.active_period}
            aria-describedby={described(ids.period, 'active_period')}
          />
          <p class="hint" id={`${ids.period}-hint`}>
            {t('stores.periodHint', { now: duration(props.store.active_period) })}
          </p>
          <FieldError id={`${ids.period}-error`} text={errors.active_period} />
        </div>
        <div class="field">
          <label for={ids.rate}>{t('stores.rate')}</label>
          <input
            id={ids.rate}
            value={rate}
            inputMode="numeric"
            onInput={(e) => setRate(e.currentTarget.value)}
            aria-invalid={!!errors.carts_for_random_control}
            aria-describedby={described(ids.rate, 'carts_for_random_control')}
          />
          <p class="hint" id={`${ids.rate}-hint`}>
            {t('stores.rateHint')}
          </p>
          <FieldError id={`${ids.rate}-error`} text={errors.carts_for_random_control} />
        </div>
        <Notice text={errors['']} />
        <Notice text={saved} kind="ok" />
        <div>
          <button type="submit">{t('stores.save')}</button>
        </div>
      </form>
    </section>
  );
}

interface Row {
  closed: boolean;
  opening: string;
  closing: string;
}

const toRow = (hour: StoreHour | undefined): Row => ({
  closed: !hour?.opening_time,
  opening: hour?.opening_time?.slice(0, 5) ?? '',
  closing: hour?.closing_time?.slice(0, 5) ?? '',
});

function HoursForm({ gln }: { gln: string }) {
  const [rows, setRows] = useState<Row[] | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState('');

  async function load() {
    const { data } = await api.GET('/api/v1/stores/{gln}/store-hours/', {
      params: { path: { gln } },
    });
    if (data) setRows(DAYS.map((day) => toRow(data.find((h) => h.weekday === day))));
  }
  useEffect(() => {
    load();
  }, [gln]);

  const change = (index: number, patch: Partial<Row>) =>
    setRows((list) => list?.map((row, i) => (i === index ? { ...row, ...patch } : row)) ?? null);

  async function submit(event: Event) {
    event.preventDefault();
    if (!rows) return;
    setSaved('');
    // All seven days in order, so an error key `3.closing_time` names the row.
    const body = rows.map((row, i) => ({
      weekday: DAYS[i],
      opening_time: row.closed ? null : row.opening || null,
      closing_time: row.closed ? null : row.closing || null,
    }));
    const { error, response } = await api.POST('/api/v1/stores/{gln}/store-hours/', {
      params: { path: { gln } },
      body,
    });
    if (response.ok) {
      setErrors({});
      setSaved(t('stores.hoursSaved'));
      load();
    } else setErrors(fieldErrors(error as unknown as ErrorBody));
  }

  if (!rows) return null;
  return (
    <section class="panel" aria-labelledby="hours-title">
      <h2 id="hours-title">{t('stores.hours')}</h2>
      <p class="hint" id="hours-hint">
        {t('stores.timeHint')}
      </p>
      <form onSubmit={submit} noValidate>
        <table class="hours">
          <thead>
            <tr>
              <th scope="col">{t('stores.day')}</th>
              <th scope="col">{t('stores.closed')}</th>
              <th scope="col">{t('stores.opens')}</th>
              <th scope="col">{t('stores.closes')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, i) => {
              const day = DAYS[i];
              const openError = errors[`${i}.opening_time`];
              const closeError = errors[`${i}.closing_time`] ?? errors[String(i)];
              return (
                <tr key={day} data-day={day}>
                  <th scope="row">{label(day)}</th>
                  <td>
                    <input
                      type="checkbox"
                      id={`closed-${day}`}
                      checked={row.closed}
                      aria-label={t('stores.dayClosed', { day: label(day) })}
                      onChange={(e) => change(i, { closed: e.currentTarget.checked })}
                    />
                  </td>
                  <td>
                    <input
                      class="time"
                      inputMode="numeric"
                      placeholder="08:00"
                      aria-label={t('stores.dayOpens', { day: label(day) })}
                      value={row.opening}
                      disabled={row.closed}
                      aria-invalid={!!openError}
                      aria-describedby={openError ? `open-${day}-error` : 'hours-hint'}
                      onInput={(e) => change(i, { opening: e.currentTarget.value })}
                    />
                    <FieldError id={`open-${day}-error`} text={openError} />
                  </td>
                  <td>
                    <input
                      class="time"
                      inputMode="numeric"
                      placeholder="20:00"
                      aria-label={t('stores.dayCloses', { day: label(day) })}
                      value={row.closing}
                      disabled={row.closed}
                      aria-invalid={!!closeError}
                      aria-describedby={closeError ? `close-${day}-error` : 'hours-hint'}
                      onInput={(e) => change(i, { closing: e.currentTarget.value })}
                    />
                    <FieldError id={`close-${day}-error`} text={closeError} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <Notice text={errors['']} />
        <Notice text={saved} kind="ok" />
        <button type="submit">{t('stores.saveHours')}</button>
      </form>
    </section>
  );
}
