/**
 * Issue 9's targets, judged on one run's figures: printed under the table and written to the
 * results, so that a run says itself whether it meets them.
 */
interface Side {
  rps: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export interface Row {
  scenario: string;
  service: Side;
  floor?: Side;
  ratio?: number;
  peakRssMb: number;
}

export interface Verdict {
  target: string;
  figure: string;
  met: boolean;
}

/** Share of the floor, per scenario (the ratio in the table). */
const RATIOS: [string, number][] = [
  ['GET carts/{id}/', 0.7],
  ['POST items/', 0.5],
  ['GET carts/ (customer)', 0.4],
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
const CHECKOUT = 'PATCH carts/{id}/checkout/';
const CHECKOUTS_PER_SECOND = 300;
const PEAK_RSS_MB = 150;

export function judge(rows: Row[]): Verdict[] {
  const verdicts: Verdict[] = [];
  // A scenario run against the service alone too (at 50 connections) has two rows.
  const row = (name: string) =>
    rows.find((r) => r.scenario === name && r.floor) ?? rows.find((r) => r.scenario === name);
  for (const [name, share] of RATIOS) {
    const r = row(name);
    if (!r) continue;
    const ratio = r.ratio ?? 0;
    verdicts.push({
      target: `${name}: ≥ ${share < 1 ? `${Math.round(share * 100)} % of` : `${share}×`} the floor`,
      figure: ratio.toFixed(2),
      met: ratio >= share,
    });
  }
  const cart = row('GET carts/{id}/');
  if (cart?.floor) {
    verdicts.push({
      target: 'GET carts/{id}/: p99 at most 2× the floor’s',
      figure: `${cart.service.p99} ms vs ${cart.floor.p99} ms`,
      met: cart.service.p99 <= 2 * cart.floor.p99,
    });
  }
  const checkout = row(CHECKOUT);
  if (checkout) {
    verdicts.push({
      target: `${CHECKOUT}: ≥ ${CHECKOUTS_PER_SECOND} per second`,
      figure: checkout.service.rps.toFixed(0),
      met: checkout.service.rps >= CHECKOUTS_PER_SECOND,
    });
  }
  const failed = rows.reduce((n, r) => n + r.service.non2xx + r.service.errors, 0);
  verdicts.push({
    target: 'every scenario: no non-2xx',
    figure: String(failed),
    met: failed === 0,
  });
  const peak = Math.max(...rows.map((r) => r.peakRssMb));
  verdicts.push({
    target: `every scenario: peak RSS ≤ ${PEAK_RSS_MB} MB`,
    figure: `${peak.toFixed(0)} MB`,
    met: peak <= PEAK_RSS_MB,
  });
  return verdicts;
}
