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
  loadStores,
  type Ranking,
  type Stats,
  type Store,
  type TimeSeries,
  userName,
} from './api';
import { dateRange } from './format';
import type { Live } from './live';
import { fieldId, StoreSelect } from './ui';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

type Interval = 'D' | 'W' | 'M';
const INTERVALS: Record<Interval, string> = { D: 'Day', W: 'Week', M: 'Month' };

/** A bucket start as its label: a date, or a month. */
function bucketLabel(interval: Interval, timestamp: string): string {
  const date = new Date(timestamp);
  return interval === 'M'
    ? date.toLocaleDateString(undefined, { year: 'numeric', month: 'short', timeZone: 'UTC' })
    : date.toLocaleDateString(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
}

interface Point {
  label: string;
  carts: number;
  items: number;
}

export function DashboardView({ live }: { live: Live }) {
  const [stores, setStores] = useState<Store[]>([]);
  const [gln, setGln] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [interval, setInterval] = useState<Interval>('D');
  const [points, setPoints] = useState<Point[] | null>(null);
  const [stats, setStats] = useState<Stats | null>(null);
  const now = new Date();
  const [month, setMonth] = useState(
    `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`,
  );
  const [ranking, setRanking] = useState<Ranking | null>(null);
  const [ids] = useState(() => ({
    store: fieldId('dash-store'),
    from: fieldId('dash-from'),
    to: fieldId('dash-to'),
    interval: fieldId('dash-interval'),
    month: fieldId('dash-month'),
  }));

  useEffect(() => {
    loadStores().then(setStores);
  }, []);

  useEffect(() => {
    const filters = { gln: gln || undefined, ...dateRange(from, to) };
    const series = (aggregate: 'carts' | 'items') =>
      api
        .GET('/api/v1/carts/time-series/', {
          params: { query: { ...filters, interval, aggregate } },
        })
        .then(({ data }) => data ?? ([] as TimeSeries));
    Promise.all([
      series('carts'),
      series('items'),
      api.GET('/api/v1/carts/stats/', { params: { query: filters } }),
    ]).then(([carts, items, totals]) => {
      const byBucket = new Map<string, Point>();
      for (const row of carts) {
        byBucket.set(row.interval, {
          label: bucketLabel(interval, row.interval),
          carts: row.total,
          items: 0,
        });
      }
      for (const row of items) {
        const point = byBucket.get(row.interval);
        if (point) point.items = row.total;
      }
      setPoints([...byBucket.values()]);
      setStats(totals.data ?? null);
    });
  }, [gln, from, to, interval, live.seq]);

  useEffect(() => {
    const [year, m] = month.split('-');
    if (!year || !m) return;
    api
      .GET('/api/v1/monthly-scores/ranking/', {
        params: { query: { year, month: String(Number(m)), all_organizations: 'True' } },
      })
      .then(({ data }) => setRanking(data ?? null));
  }, [month, live.seq]);

  const totalCarts = points?.reduce((sum, p) => sum + p.carts, 0) ?? 0;
  return (
    <>
      <section class="panel" aria-labelledby="dash-title">
        <h1 id="dash-title">Dashboard</h1>
        <form class="filters" onSubmit={(e) => e.preventDefault()} aria-label="Dashboard filters">
          <div class="field">
            <label for={ids.store}>Store</label>
            <StoreSelect
              id={ids.store}
              stores={stores}
              value={gln}
              onChange={setGln}
              allLabel="All stores"
            />
          </div>
          <div class="field">
            <label for={ids.from}>Created from</label>
            <input
              id={ids.from}
              type="date"
              value={from}
              onChange={(e) => setFrom(e.currentTarget.value)}
            />
          </div>
          <div class="field">
            <label for={ids.to}>Created to</label>
            <input
              id={ids.to}
              type="date"
              value={to}
              onChange={(e) => setTo(e.currentTarget.value)}
            />
          </div>
          <div class="field">
            <label for={ids.interval}>Per</label>
            <select
              id={ids.interval}
              value={interval}
              onChange={(e) => setInterval(e.currentTarget.value as Interval)}
            >
              {Object.entries(INTERVALS).map(([value, text]) => (
                <option key={value} value={value}>
                  {text}
                </option>
              ))}
            </select>
          </div>
        </form>
        <dl class="totals" aria-label="Totals for the filters">
          <div>
            <dt>Carts</dt>
            <dd data-total="carts">{totalCarts}</dd>
          </div>
          <div>
            <dt>Item lines</dt>
            <dd data-total="items">{stats?.total_items ?? '—'}</dd>
          </div>
          <div>
            <dt>Total quantity</dt>
            <dd data-total="quantity">{stats?.total_quantity ?? '—'}</dd>
          </div>
        </dl>
        {points && (
          <SeriesChart
            points={points}
            title={`Carts and item lines per ${INTERVALS[interval].toLowerCase()}`}
          />
        )}
      </section>
      <section class="panel" aria-labelledby="ranking-title">
        <h2 id="ranking-title">Monthly ranking</h2>
        <div class="field">
          <label for={ids.month}>Month</label>
          <input
            id={ids.month}
            type="month"
            value={month}
            onChange={(e) => setMonth(e.currentTarget.value)}
          />
        </div>
        {ranking && ranking.results.length === 0 && <p class="empty">No checkouts that month.</p>}
        {ranking && ranking.results.length > 0 && (
          <table class="ranking">
            <caption class="visually-hidden">Items checked out per customer</caption>
            <thead>
              <tr>
                <th scope="col" class="num">
                  Rank
                </th>
                <th scope="col">Customer</th>
                <th scope="col" class="num">
                  Items
                </th>
              </tr>
            </thead>
            <tbody>
              {ranking.results.map((row) => (
                <tr key={row.user.id}>
                  <td class="num">{row.rank}</td>
                  <td>{userName(row.user)}</td>
                  <td class="num">{row.score}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}

/** The bar chart, with the same figures as a table for screen readers and keyboard users. */
function SeriesChart({ points, title }: { points: Point[]; title: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      type: 'bar',
      data: {
        labels: points.map((p) => p.label),
        datasets: [
          { label: 'Carts', data: points.map((p) => p.carts), backgroundColor: '#1d4ed8' },
          { label: 'Item lines', data: points.map((p) => p.items), backgroundColor: '#b45309' },
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
  }, [points]);
  if (points.length === 0) return <p class="empty">No carts for these filters.</p>;
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <div class="chart-box">
        <canvas ref={canvas} role="img" aria-label={title} />
      </div>
      <details>
        <summary>Figures as a table</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">Period</th>
              <th scope="col" class="num">
                Carts
              </th>
              <th scope="col" class="num">
                Item lines
              </th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.label}>
                <td>{p.label}</td>
                <td class="num">{p.carts}</td>
                <td class="num">{p.items}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
