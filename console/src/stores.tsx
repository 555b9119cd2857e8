import { useEffect, useState } from 'preact/hooks';
import { api, type ErrorBody, fieldErrors, loadStores, type Store, type StoreHour } from './api';
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
const label = (day: string) => day[0].toUpperCase() + day.slice(1);

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
        <h1 id="stores-title">Stores</h1>
        <div class="field">
          <label for={selectId}>Store</label>
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
      setSaved('Store saved.');
      props.onSaved(data);
    } else setErrors(fieldErrors(error as ErrorBody));
  }

  const described = (id: string, field: string) => (errors[field] ? `${id}-error` : `${id}-hint`);
  return (
    <section class="panel" aria-labelledby="store-form-title">
      <h2 id="store-form-title">
        {props.store.name} <span class="sub">GLN {props.store.gln}</span>
      </h2>
      <form class="stack" onSubmit={submit} noValidate>
        <div class="field">
          <label for={ids.name}>Name</label>
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
          <label for={ids.period}>Active period</label>
          <input
            id={ids.period}
            value={period}
            inputMode="numeric"
            onInput={(e) => setPeriod(e.currentTarget.value)}
            aria-invalid={!!errors.active_period}
            aria-describedby={described(ids.period, 'active_period')}
          />
          <p class="hint" id={`${ids.period}-hint`}>
            HH:MM:SS. A cart stays active this long after its last scan.
          </p>
          <FieldError id={`${ids.period}-error`} text={errors.active_period} />
        </div>
        <div class="field">
          <label for={ids.rate}>Random control: one checkout in</label>
          <input
            id={ids.rate}
            value={rate}
            inputMode="numeric"
            onInput={(e) => setRate(e.currentTarget.value)}
            aria-invalid={!!errors.carts_for_random_control}
            aria-describedby={described(ids.rate, 'carts_for_random_control')}
          />
          <p class="hint" id={`${ids.rate}-hint`}>
            N: each checkout is drawn with probability 1/N; 0 turns random controls off.
          </p>
          <FieldError id={`${ids.rate}-error`} text={errors.carts_for_random_control} />
        </div>
        <Notice text={errors['']} />
        <Notice text={saved} kind="ok" />
        <div>
          <button type="submit">Save store</button>
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
      setSaved('Opening hours saved.');
      load();
    } else setErrors(fieldErrors(error as unknown as ErrorBody));
  }

  if (!rows) return null;
  return (
    <section class="panel" aria-labelledby="hours-title">
      <h2 id="hours-title">Opening hours</h2>
      <form onSubmit={submit} noValidate>
        <table class="hours">
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Closed</th>
              <th scope="col">Opens</th>
              <th scope="col">Closes</th>
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
                      aria-label={`${label(day)} closed`}
                      onChange={(e) => change(i, { closed: e.currentTarget.checked })}
                    />
                  </td>
                  <td>
                    <input
                      type="time"
                      aria-label={`${label(day)} opens`}
                      value={row.opening}
                      disabled={row.closed}
                      aria-invalid={!!openError}
                      aria-describedby={openError ? `open-${day}-error` : undefined}
                      onInput={(e) => change(i, { opening: e.currentTarget.value })}
                    />
                    <FieldError id={`open-${day}-error`} text={openError} />
                  </td>
                  <td>
                    <input
                      type="time"
                      aria-label={`${label(day)} closes`}
                      value={row.closing}
                      disabled={row.closed}
                      aria-invalid={!!closeError}
                      aria-describedby={closeError ? `close-${day}-error` : undefined}
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
        <button type="submit">Save opening hours</button>
      </form>
    </section>
  );
}
