import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  Tooltip,
} from 'chart.js';
import { useEffect, useRef, useState } from 'preact/hooks';
import {
  api,
  type CartFilters,
  type ControlCounts,
  loadStores,
  type Me,
  type Ranking,
  type Stats,
  type Store,
  userName,
} from './api';
import { addDays, dateRange, day, month, num, percent, shortDay } from './format';
import { t } from './i18n';
import type { Live } from './live';
import { DateField, fieldId, StoreSelect } from './ui';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

type Interval = 'D' | 'W' | 'M';
const INTERVALS: Interval[] = ['D', 'W', 'M'];
/** Days shown when the period is open: the last two weeks. */
const DEFAULT_DAYS = 14;

const today = () => new Date().toISOString().slice(0, 10);

/** The UTC start (`YYYY-MM-DD`) of the bucket holding a day, as the time series counts. */
function bucketOf(interval: Interval, date: string): string {
  if (interval === 'M') return `${date.slice(0, 7)}-01`;
  if (interval === 'W') {
    const weekday = (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0
    return addDays(date, -weekday);
  }
  return date;
}

/** Every bucket from the first day to the last: days without carts are there, as zero. */
function buckets(interval: Interval, from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) {
    const bucket = bucketOf(interval, d);
    if (out[out.length - 1] !== bucket) out.push(bucket);
  }
  return out;
}

const label = (interval: Interval, bucket: string) =>
  interval === 'M' ? month(bucket) : day(bucket);

/** The figures of one store (or all) for the period. */
interface Figures {
  carts: number;
  checkouts: number;
  errors: number;
  /** Per bucket start: carts, checkouts. */
  series: Map<string, { carts: number; checkouts: number }>;
}

/** Controls of the period by kind and outcome (GET controls/stats/: the rollups). */
interface ControlFigures {
  random: ControlCounts;
  chosen: ControlCounts;
}

const NO_CONTROLS: ControlCounts = { created: 0, verified: 0, rejected: 0, pending: 0 };
const OUTCOMES = ['created', 'verified', 'rejected', 'pending'] as const;

/** Carts per bucket (from the rollups: the cart filters the time series answers from them). */
async function series(filters: CartFilters, interval: Interval): Promise<Map<string, number>> {
  const { data } = await api.GET('/api/v1/carts/time-series/', {
    params: { query: { ...filters, interval, aggregate: 'carts' } },
  });
  return new Map((data ?? []).map((row) => [row.interval.slice(0, 10), row.total]));
}

const sum = (values: Map<string, number>) => [...values.values()].reduce((a, b) => a + b, 0);

async function figures(
  store: Store | undefined,
  from: string,
  to: string,
  interval: Interval,
): Promise<Figures> {
  const filters: CartFilters = { gln: store?.gln, ...dateRange(from, to) };
  const [carts, checkouts, errors] = await Promise.all([
    series(filters, interval),
    series({ ...filters, checkout: 'True' }, interval),
    series({ ...filters, checkout_availability_error: 'True' }, interval),
  ]);
  const byBucket = new Map<string, { carts: number; checkouts: number }>();
  for (const bucket of buckets(interval, from, to)) {
    byBucket.set(bucket, { carts: carts.get(bucket) ?? 0, checkouts: checkouts.get(bucket) ?? 0 });
  }
  return { carts: sum(carts), checkouts: sum(checkouts), errors: sum(errors), series: byBucket };
}

/**
 * The controls of the period in one call: over all stores and per store (a store that had
 * none is not listed: zero). Rejected controls count too, with their kind, for staff as for
 * administrators.
 */
async function controlFigures(
  from: string,
  to: string,
): Promise<{ all: ControlFigures; byStore: Map<number, ControlFigures> }> {
  const { data } = await api.GET('/api/v1/controls/stats/', {
    params: { query: { ...dateRange(from, to), by_store: 'True' } },
  });
  return {
    all: { random: data?.random ?? NO_CONTROLS, chosen: data?.chosen ?? NO_CONTROLS },
    byStore: new Map((data?.stores ?? []).map((s) => [s.store, s])),
  };
}

const controlsOf = (byStore: Map<number, ControlFigures>, store: Store): ControlFigures =>
  byStore.get(store.id) ?? { random: NO_CONTROLS, chosen: NO_CONTROLS };

/** Both kinds together. */
const both = (c: ControlFigures, outcome: (typeof OUTCOMES)[number]) =>
  c.random[outcome] + c.chosen[outcome];

export function DashboardView({ live, me }: { live: Live; me: Me }) {
  const [stores, setStores] = useState<Store[]>([]);
  const [gln, setGln] = useState('');
  const [from, setFrom] = useState(addDays(today(), -(DEFAULT_DAYS - 1)));
  const [to, setTo] = useState(today());
  const [interval, setInterval] = useState<Interval>('D');
  const [shown, setShown] = useState<Figures | null>(null);
  const [stats, setStats] = useState<Stats | null>(null);
  const [controls, setControls] = useState<ControlFigures | null>(null);
  const [compared, setCompared] = useState<[Store, Figures, ControlFigures][]>([]);
  const [rankMonth, setRankMonth] = useState(today().slice(0, 7));
  const [ranking, setRanking] = useState<Ranking | null>(null);
  const [ids] = useState(() => ({
    store: fieldId('dash-store'),
    interval: fieldId('dash-interval'),
    month: fieldId('dash-month'),
  }));
  const latest = useRef(0);

  useEffect(() => {
    loadStores().then(setStores);
  }, []);

  const store = stores.find((s) => s.gln === gln);
  // An open end of the period: the last two weeks up to today.
  const first = from || addDays(to || today(), -(DEFAULT_DAYS - 1));
  const last = to || today();

  useEffect(() => {
    if (first > last) return;
    const mine = ++latest.current;
    Promise.all([
      figures(store, first, last, interval),
      api.GET('/api/v1/carts/stats/', {
        params: { query: { gln: store?.gln, ...dateRange(first, last) } },
      }),
      Promise.all(stores.map(async (s) => [s, await figures(s, first, last, 'M')] as const)),
      controlFigures(first, last),
    ]).then(([figures, totals, perStore, controlled]) => {
      if (mine !== latest.current) return;
      setShown(figures);
      setStats(totals.data ?? null);
      setControls(store ? controlsOf(controlled.byStore, store) : controlled.all);
      setCompared(perStore.map(([s, f]) => [s, f, controlsOf(controlled.byStore, s)]));
    });
  }, [gln, first, last, interval, stores.length, live.seq]);

  useEffect(() => {
    const [year, m] = rankMonth.split('-');
    api
      .GET('/api/v1/monthly-scores/ranking/', {
        params: { query: { year, month: String(Number(m)), all_organizations: 'True' } },
      })
      .then(({ data }) => setRanking(data ?? null));
  }, [rankMonth, live.seq]);

  // The last twelve months, newest first, for the ranking.
  const months = Array.from({ length: 12 }, (_, i) => {
    const date = new Date(`${today().slice(0, 7)}-01T00:00:00Z`);
    date.setUTCMonth(date.getUTCMonth() - i);
    return date.toISOString().slice(0, 7);
  });
  // Customers only: the people who checked something out that month, not the staff member
  // looking (the API ranks every member of an organization, staff too, with 0).
  const customers = ranking?.results.filter((row) => (row.score ?? 0) > 0 && row.user.id !== me.id);

  return (
    <>
      <section class="panel" aria-labelledby="dash-title">
        <h1 id="dash-title">{t('dash.title')}</h1>
        <form class="filters" onSubmit={(e) => e.preventDefault()} aria-label={t('dash.filters')}>
          <div class="field">
            <label for={ids.store}>{t('filter.store')}</label>
            <StoreSelect
              id={ids.store}
              stores={stores}
              value={gln}
              onChange={setGln}
              allLabel={t('filter.allStores')}
            />
          </div>
          <DateField label={t('filter.from')} value={from} onChange={setFrom} />
          <DateField label={t('filter.to')} value={to} onChange={setTo} />
          <div class="field">
            <label for={ids.interval}>{t('dash.per')}</label>
            <select
              id={ids.interval}
              value={interval}
              onChange={(e) => setInterval(e.currentTarget.value as Interval)}
            >
              {INTERVALS.map((value) => (
                <option key={value} value={value}>
                  {t(`dash.${value}`)}
                </option>
              ))}
            </select>
          </div>
        </form>
        {shown && (
          <>
            <dl class="totals" aria-label={t('dash.totals')}>
              <Total name="carts" label={t('dash.carts')} value={num(shown.carts)} />
              <Total name="checkouts" label={t('dash.checkouts')} value={num(shown.checkouts)} />
              <Total
                name="rate"
                label={t('dash.rate')}
                value={percent(shown.checkouts, shown.carts)}
              />
              <Total
                name="left"
                label={t('dash.left')}
                value={num(shown.carts - shown.checkouts)}
              />
              <Total name="errors" label={t('dash.errors')} value={num(shown.errors)} />
              <Total name="items" label={t('dash.items')} value={num(stats?.total_items)} />
              <Total
                name="quantity"
                label={t('dash.quantity')}
                value={num(stats?.total_quantity)}
              />
            </dl>
            {controls && <ControlTotals controls={controls} />}
            <SeriesChart
              points={[...shown.series].map(([bucket, p]) => ({
                label: label(interval, bucket),
                short: interval === 'M' ? month(bucket) : shortDay(bucket),
                ...p,
              }))}
              title={t('dash.chartTitle', { interval: t(`dash.unit.${interval}`) })}
            />
          </>
        )}
      </section>
      <section class="panel" aria-labelledby="compare-title">
        <h2 id="compare-title">{t('dash.compare')}</h2>
        <table class="comparison">
          <caption class="visually-hidden">{t('dash.compareCaption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('filter.store')}</th>
              <th scope="col" class="num">
                {t('dash.carts')}
              </th>
              <th scope="col" class="num">
                {t('dash.checkouts')}
              </th>
              <th scope="col" class="num">
                {t('dash.rate')}
              </th>
              <th scope="col" class="num">
                {t('dash.left')}
              </th>
              <th scope="col" class="num">
                {t('dash.errors')}
              </th>
              <th scope="col" class="num">
                {t('dash.controlsRandom')}
              </th>
              <th scope="col" class="num">
                {t('dash.controlsChosen')}
              </th>
            </tr>
          </thead>
          <tbody>
            {compared.map(([s, f, c]) => (
              <tr key={s.gln} data-store={s.gln}>
                <th scope="row">{s.name}</th>
                <td class="num">{num(f.carts)}</td>
                <td class="num">{num(f.checkouts)}</td>
                <td class="num">{percent(f.checkouts, f.carts)}</td>
                <td class="num">{num(f.carts - f.checkouts)}</td>
                <td class="num">{num(f.errors)}</td>
                <td class="num">{num(c.random.created)}</td>
                <td class="num">{num(c.chosen.created)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {/* Held upright the eight columns do not fit: a card per store instead. */}
        <ul class="comparison-cards">
          {compared.map(([s, f, c]) => (
            <li key={s.gln} data-store-card={s.gln}>
              <h3>{s.name}</h3>
              <dl>
                <Total name="store-carts" label={t('dash.carts')} value={num(f.carts)} />
                <Total
                  name="store-checkouts"
                  label={t('dash.checkouts')}
                  value={num(f.checkouts)}
                />
                <Total
                  name="store-rate"
                  label={t('dash.rate')}
                  value={percent(f.checkouts, f.carts)}
                />
                <Total
                  name="store-left"
                  label={t('dash.left')}
                  value={num(f.carts - f.checkouts)}
                />
                <Total name="store-errors" label={t('dash.errors')} value={num(f.errors)} />
                <Total
                  name="store-random"
                  label={t('dash.controlsRandom')}
                  value={num(c.random.created)}
                />
                <Total
                  name="store-chosen"
                  label={t('dash.controlsChosen')}
                  value={num(c.chosen.created)}
                />
              </dl>
            </li>
          ))}
        </ul>
      </section>
      <section class="panel" aria-labelledby="ranking-title">
        <h2 id="ranking-title">{t('dash.ranking')}</h2>
        <div class="field">
          <label for={ids.month}>{t('dash.month')}</label>
          <select
            id={ids.month}
            value={rankMonth}
            onChange={(e) => setRankMonth(e.currentTarget.value)}
          >
            {months.map((value) => (
              <option key={value} value={value}>
                {month(value)}
              </option>
            ))}
          </select>
        </div>
        {customers && customers.length === 0 && <p class="empty">{t('dash.noRanking')}</p>}
        {customers && customers.length > 0 && (
          <table class="ranking">
            <caption class="visually-hidden">{t('dash.rankingCaption')}</caption>
            <thead>
              <tr>
                <th scope="col" class="num">
                  {t('dash.rank')}
                </th>
                <th scope="col">{t('dash.customer')}</th>
                <th scope="col" class="num">
                  {t('dash.score')}
                </th>
              </tr>
            </thead>
            <tbody>
              {customers.map((row) => (
                <tr key={row.user.id}>
                  <td class="num">{num(row.rank)}</td>
                  <td>{userName(row.user)}</td>
                  <td class="num">{num(row.score)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}

/**
 * The period's controls: verified, rejected and pending of both kinds, random and chosen
 * ones created; then every outcome by kind, as a table.
 */
function ControlTotals({ controls }: { controls: ControlFigures }) {
  const outcome = {
    created: t('dash.controlsCreated'),
    verified: t('dash.controlsVerified'),
    rejected: t('dash.controlsRejected'),
    pending: t('dash.controlsPending'),
  };
  return (
    <>
      <h2 class="subhead">{t('dash.controls')}</h2>
      <dl class="totals small">
        <Total name="verified" label={outcome.verified} value={num(both(controls, 'verified'))} />
        <Total name="rejected" label={outcome.rejected} value={num(both(controls, 'rejected'))} />
        <Total name="pending" label={outcome.pending} value={num(both(controls, 'pending'))} />
        <Total
          name="random"
          label={t('dash.controlsRandom')}
          value={num(controls.random.created)}
        />
        <Total
          name="chosen"
          label={t('dash.controlsChosen')}
          value={num(controls.chosen.created)}
        />
      </dl>
      <table class="control-kinds">
        <caption>{t('dash.controlsByKind')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('dash.controlsOutcome')}</th>
            <th scope="col" class="num">
              {t('dash.controlsRandom')}
            </th>
            <th scope="col" class="num">
              {t('dash.controlsChosen')}
            </th>
            <th scope="col" class="num">
              {t('dash.controlsAll')}
            </th>
          </tr>
        </thead>
        <tbody>
          {OUTCOMES.map((key) => (
            <tr key={key} data-outcome={key}>
              <th scope="row">{outcome[key]}</th>
              <td class="num" data-kind="random">
                {num(controls.random[key])}
              </td>
              <td class="num" data-kind="chosen">
                {num(controls.chosen[key])}
              </td>
              <td class="num" data-kind="all">
                {num(both(controls, key))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function Total(props: { name: string; label: string; value: string }) {
  return (
    <div>
      <dt>{props.label}</dt>
      <dd data-total={props.name}>{props.value}</dd>
    </div>
  );
}

interface Point {
  label: string;
  /** On the chart's axis. */
  short: string;
  carts: number;
  checkouts: number;
}

/** The bar chart, with the same figures as a table for screen readers and keyboard users. */
function SeriesChart({ points, title }: { points: Point[]; title: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      type: 'bar',
      data: {
        labels: points.map((p) => p.short),
        datasets: [
          { label: t('dash.carts'), data: points.map((p) => p.carts), backgroundColor: '#1d4ed8' },
          {
            label: t('dash.checkouts'),
            data: points.map((p) => p.checkouts),
            backgroundColor: '#15803d',
          },
        ],
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        scales: { y: { beginAtZero: true, ticks: { precision: 0 } } },
      },
    });
    return () => chart.destroy();
  }, [points.map((p) => `${p.label}:${p.carts}:${p.checkouts}`).join('|')]);
  if (points.length === 0) return <p class="empty">{t('dash.noCarts')}</p>;
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <div class="chart-box">
        <canvas ref={canvas} role="img" aria-label={title} />
      </div>
      <details>
        <summary>{t('dash.asTable')}</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">{t('dash.period')}</th>
              <th scope="col" class="num">
                {t('dash.carts')}
              </th>
              <th scope="col" class="num">
                {t('dash.checkouts')}
              </th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.label}>
                <td>{p.label}</td>
                <td class="num">{num(p.carts)}</td>
                <td class="num">{num(p.checkouts)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
