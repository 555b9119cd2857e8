import { describe, expect, it } from 'vitest';
import { judge, type Row } from '../../bench/targets.js';

const side = (rps: number, p99 = 10, non2xx = 0) => ({ rps, p99, non2xx, errors: 0 });
const row = (scenario: string, service: number, floor?: number, rss = 100): Row => ({
  scenario,
  service: side(service),
  floor: floor === undefined ? undefined : side(floor),
  ratio: floor === undefined ? undefined : service / floor,
  peakRssMb: rss,
});

describe('the benchmark judges issue 9 targets', () => {
  it('meets each target at its bound and misses it just below', () => {
    const met = judge([
      row('GET carts/{id}/', 70, 100),
      row('carts/time-series/?interval=D&gln= (staff)', 1000, 100),
      row('PATCH carts/{id}/checkout/', 300),
    ]);
    expect(met.every((v) => v.met)).toBe(true);
    const missed = judge([
      row('GET carts/{id}/', 69, 100),
      row('carts/time-series/?interval=D&gln= (staff)', 999, 100, 151),
      row('PATCH carts/{id}/checkout/', 299),
    ]);
    expect(missed.filter((v) => !v.met).map((v) => v.target)).toEqual([
      'GET carts/{id}/: ≥ 70 % of the floor',
      'carts/time-series/?interval=D&gln= (staff): ≥ 10× the floor',
      'PATCH carts/{id}/checkout/: ≥ 300 per second',
      'every scenario: peak RSS ≤ 150 MB',
    ]);
  });

  it('misses on a p99 over twice the floor’s and on any failed request', () => {
    const rows = [row('GET carts/{id}/', 100, 100)];
    rows[0]!.service = side(100, 21, 1);
    rows[0]!.floor = side(100, 10);
    const missed = judge(rows).filter((v) => !v.met);
    expect(missed.map((v) => v.target)).toEqual([
      'GET carts/{id}/: p99 at most 2× the floor’s',
      'every scenario: no non-2xx',
    ]);
  });

  it('takes the ratio from the row with a floor, and failures from every row', () => {
    const alone = row('carts/stats/ (staff)', 5);
    alone.service = side(5, 10, 2);
    const verdicts = judge([row('carts/stats/ (staff)', 100, 10), alone]);
    expect(verdicts.filter((v) => !v.met).map((v) => v.target)).toEqual([
      'every scenario: no non-2xx',
    ]);
  });
});
