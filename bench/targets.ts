/**
 * The targets of issues 9 and 19, judged on one run's figures: printed under the table and
 * written to the results, so that a run says itself whether it meets them.
 */
interface Side {
  rps: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** Database CPU milliseconds per request (the backends' CPU time over the requests). */
  dbMs?: number;
  /** The server process's CPU milliseconds per request. */
  appMs?: number;
}

export interface Row {
  scenario: string;
  service: Side;
  /** The bare floor: the rows, no joins. */
  floor?: Side;
  ratio?: number;
  /** The document floor: the same JSON as the service, built in one statement. */
  document?: Side;
  documentRatio?: number;
  peakRssMb: number;
}

/** One scenario at 200 connections against the service alone (issue 19's overload). */
export interface OverloadRow {
  scenario: string;
  rps: number;
  p99: number;
  ok: number;
  unavailable: number;
  unavailableWithoutRetryAfter: number;
  /** Answers neither 2xx nor 503. */
  other: number;
  /** Connection errors and answers past the bound. */
  errors: number;
  peakRssMb: number;
}

export interface Verdict {
  target: string;
  figure: string;
  met: boolean;
}

/** Share of the bare floor, per scenario (the ratio in the table). */
const RATIOS: [string, number][] = [
  ['POST items/', 0.8],
  ['GET carts/?gln= (staff)', 0.4],
  ['carts/stats/ (customer)', 0.5],
  ['carts/time-series/?interval=D (customer)', 0.5],
  ['GET carts/ (staff)', 10],
  ['carts/stats/ (staff)', 10],
  ['carts/stats/?gln= (staff)', 10],
  ['carts/stats/?created_after=&created_before= (staff)', 10],
  ['carts/time-series/?interval=D (staff)', 10],
  ['carts/time-series/?interval=D&gln= (staff)', 10],
  ['carts/time-series/?interval=D&created_after=&created_before= (staff)', 10],
];

/** Share of the document floor (the same JSON built by PostgreSQL in one statement). */
const DOCUMENT_RATIOS: [string, number][] = [
  ['GET carts/{id}/', 0.9],
  ['GET carts/ (customer)', 0.7],
];

/**
 * Issue 19: every staff view over all carts (first page with its count, stats, time series by
 * day and month, each also by store and by date range) within this much database time per
 * request, at every scale.
 */
export const STAFF_VIEWS = [
  'GET carts/ (staff)',
  'GET carts/?gln= (staff)',
  'GET carts/?created_after=&created_before= (staff)',
  'carts/stats/ (staff)',
  'carts/stats/?gln= (staff)',
  'carts/stats/?created_after=&created_before= (staff)',
  'carts/time-series/?interval=D (staff)',
  'carts/time-series/?interval=D&gln= (staff)',
  'carts/time-series/?interval=D&created_after=&created_before= (staff)',
  'carts/time-series/?interval=M (staff)',
  'carts/time-series/?interval=M&gln= (staff)',
  'carts/time-series/?interval=M&created_after=&created_before= (staff)',
];
export const STAFF_DB_MS = 2;
const CHECKOUT = 'PATCH carts/{id}/checkout/';
/** Issue 33: checkouts at this share of their floor's rate (the same statements a minimal checkout needs). */
const CHECKOUT_SHARE = 0.8;
const PEAK_RSS_MB = 150;

const share = (x: number) => (x < 1 ? `${Math.round(x * 100)} % of` : `${x}×`);

export function judge(rows: Row[], overload: OverloadRow[] = []): Verdict[] {
  const verdicts: Verdict[] = [];
  // A scenario run against the service alone too (at 50 connections) has two rows.
  const row = (name: string) =>
    rows.find((r) => r.scenario === name && (r.floor || r.document)) ??
    rows.find((r) => r.scenario === name);
  for (const [name, needed] of DOCUMENT_RATIOS) {
    const r = row(name);
    if (!r) continue;
    const ratio = r.documentRatio ?? 0;
    verdicts.push({
      target: `${name}: ≥ ${share(needed)} the document floor`,
      figure: ratio.toFixed(2),
      met: ratio >= needed,
    });
  }
  for (const [name, needed] of RATIOS) {
    const r = row(name);
    if (!r) continue;
    const ratio = r.ratio ?? 0;
    verdicts.push({
      target: `${name}: ≥ ${share(needed)} the floor`,
      figure: ratio.toFixed(2),
      met: ratio >= needed,
    });
  }
  verdicts.push(...staffDbTime(rows, ''));
  const cart = row('GET carts/{id}/');
  const cartFloor = cart?.document ?? cart?.floor;
  if (cart && cartFloor) {
    verdicts.push({
      target: 'GET carts/{id}/: p99 at most 2× the floor’s',
      figure: `${cart.service.p99} ms vs ${cartFloor.p99} ms`,
      met: cart.service.p99 <= 2 * cartFloor.p99,
    });
  }
  const checkout = row(CHECKOUT);
  if (checkout) {
    // Judged against the floor's rate in the same run (what the machine allowed the same work
    // that day), not an absolute rate that moves with the machine.
    const floorRps = checkout.floor?.rps;
    const ratio = floorRps ? checkout.service.rps / floorRps : undefined;
    verdicts.push({
      target: `${CHECKOUT}: ≥ ${share(CHECKOUT_SHARE)} the floor`,
      figure:
        ratio === undefined
          ? `${checkout.service.rps.toFixed(0)} per second (no floor in this run)`
          : `${ratio.toFixed(2)} (${checkout.service.rps.toFixed(0)} vs ${floorRps!.toFixed(0)} per second)`,
      met: ratio !== undefined && ratio >= CHECKOUT_SHARE,
    });
  }
  verdicts.push(...everyScenario(rows));
  if (overload.length > 0) verdicts.push(...judgeOverload(overload));
  return verdicts;
}

/** At 200 connections: only 2xx or 503 with `Retry-After`, none past its bound; RSS bounded. */
export function judgeOverload(rows: OverloadRow[]): Verdict[] {
  const bad = rows.filter((r) => r.other > 0 || r.errors > 0 || r.unavailableWithoutRetryAfter > 0);
  const peak = Math.max(...rows.map((r) => r.peakRssMb));
  return [
    {
      target:
        'overload (200 connections): every answer 2xx or 503 with Retry-After, none past its bound',
      figure:
        bad.length === 0
          ? `${rows.reduce((n, r) => n + r.ok, 0)} 2xx, ${rows.reduce((n, r) => n + r.unavailable, 0)} 503`
          : bad
              .map(
                (r) =>
                  `${r.scenario}: ${r.other} other, ${r.errors} errors/timeouts, ${r.unavailableWithoutRetryAfter} 503 without Retry-After`,
              )
              .join('; '),
      met: bad.length === 0,
    },
    {
      target: `overload (200 connections): peak RSS ≤ ${PEAK_RSS_MB} MB`,
      figure: `${peak.toFixed(0)} MB`,
      met: peak <= PEAK_RSS_MB,
    },
  ];
}

/** The staff views' database time per request (the first row of each scenario). */
function staffDbTime(rows: Row[], at: string): Verdict[] {
  const verdicts: Verdict[] = [];
  for (const name of STAFF_VIEWS) {
    const r = rows.find((x) => x.scenario === name);
    if (!r || r.service.dbMs === undefined) continue;
    verdicts.push({
      target: `${name}: ≤ ${STAFF_DB_MS} ms of database time per request${at}`,
      figure: `${r.service.dbMs.toFixed(2)} ms`,
      met: r.service.dbMs <= STAFF_DB_MS,
    });
  }
  return verdicts;
}

function everyScenario(rows: Row[], at = ''): Verdict[] {
  const failed = rows.reduce((n, r) => n + r.service.non2xx + r.service.errors, 0);
  const peak = Math.max(...rows.map((r) => r.peakRssMb));
  return [
    { target: `every scenario: no non-2xx${at}`, figure: String(failed), met: failed === 0 },
    {
      target: `every scenario: peak RSS ≤ ${PEAK_RSS_MB} MB${at}`,
      figure: `${peak.toFixed(0)} MB`,
      met: peak <= PEAK_RSS_MB,
    },
  ];
}

/**
 * The scaling table: at every shape, each staff view within its database time, no failed
 * request, peak RSS within bounds.
 */
export function judgeScaling(passes: { label: string; rows: Row[] }[]): Verdict[] {
  return passes.flatMap((p) => [
    ...staffDbTime(p.rows, ` (${p.label})`),
    ...everyScenario(p.rows, ` (${p.label})`),
  ]);
}
