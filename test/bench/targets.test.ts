import { describe, expect, it } from 'vitest';
import {
  judge,
  judgeOverload,
  judgeScaling,
  type OverloadRow,
  type Row,
  STAFF_VIEWS,
} from '../../bench/targets.js';

const side = (rps: number, p99 = 10, non2xx = 0, dbMs?: number) => ({
  rps,
  p99,
  non2xx,
  errors: 0,
  dbMs,
});
const row = (scenario: string, service: number, floor?: number, rss = 100): Row => ({
  scenario,
  service: side(service),
  floor: floor === undefined ? undefined : side(floor),
  ratio: floor === undefined ? undefined : service / floor,
  peakRssMb: rss,
});
/** A row judged against the document floor. */
const documentRow = (scenario: string, service: number, document: number): Row => ({
  scenario,
  service: side(service),
  document: side(document),
  documentRatio: service / document,
  peakRssMb: 100,
});
const staff = (scenario: string, dbMs: number): Row => ({
  scenario,
  service: side(100, 10, 0, dbMs),
  peakRssMb: 100,
});

describe('the benchmark judges the targets of issues 9 and 19', () => {
  it('meets each target at its bound and misses it just below', () => {
    const met = judge([
      documentRow('GET carts/{id}/', 90, 100),
      documentRow('GET carts/ (customer)', 70, 100),
      row('POST items/', 80, 100),
      row('carts/time-series/?interval=D&gln= (staff)', 1000, 100),
      staff('carts/time-series/?interval=M (staff)', 2),
      row('PATCH carts/{id}/checkout/', 400, 500),
    ]);
    expect(met.every((v) => v.met)).toBe(true);
    expect(met).toHaveLength(9);
    const missed = judge([
      documentRow('GET carts/{id}/', 89, 100),
      documentRow('GET carts/ (customer)', 69, 100),
      row('POST items/', 79, 100),
      row('carts/time-series/?interval=D&gln= (staff)', 999, 100, 151),
      staff('carts/time-series/?interval=M (staff)', 2.01),
      row('PATCH carts/{id}/checkout/', 399, 500),
    ]);
    expect(missed.filter((v) => !v.met).map((v) => v.target)).toEqual([
      'GET carts/{id}/: ≥ 90 % of the document floor',
      'GET carts/ (customer): ≥ 70 % of the document floor',
      'POST items/: ≥ 80 % of the floor',
      'carts/time-series/?interval=D&gln= (staff): ≥ 10× the floor',
      'carts/time-series/?interval=M (staff): ≤ 2 ms of database time per request',
      'PATCH carts/{id}/checkout/: ≥ 80 % of the floor',
      'every scenario: peak RSS ≤ 150 MB',
    ]);
  });

  it('judges checkouts against their floor’s rate in the same run (issue 33)', () => {
    const checkout = (service: number, floor?: number) =>
      judge([row('PATCH carts/{id}/checkout/', service, floor)]).find((v) =>
        v.target.startsWith('PATCH'),
      );
    expect(checkout(287, 375)).toEqual({
      target: 'PATCH carts/{id}/checkout/: ≥ 80 % of the floor',
      figure: '0.77 (287 vs 375 per second)',
      met: false,
    });
    expect(checkout(300, 375)?.met).toBe(true);
    expect(checkout(299, 375)?.met).toBe(false);
    // No floor in the run: nothing to judge against, not met.
    expect(checkout(900)).toMatchObject({
      figure: '900 per second (no floor in this run)',
      met: false,
    });
  });

  it('misses on a p99 over twice the floor’s and on any failed request', () => {
    const rows = [documentRow('GET carts/{id}/', 100, 100)];
    rows[0]!.service = side(100, 21, 1);
    rows[0]!.document = side(100, 10);
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

  it('judges every staff view’s database time at every scale of the scaling table', () => {
    const at = (dbMs: number) => STAFF_VIEWS.map((name) => staff(name, dbMs));
    const small = { label: '100,000 carts', rows: at(0.5) };
    const large = { label: '1,000,000 carts, 500 stores, 10 years', rows: at(1.9) };
    large.rows[6] = staff(STAFF_VIEWS[6]!, 2.5);
    const verdicts = judgeScaling([small, large]);
    expect(verdicts).toHaveLength(2 * (STAFF_VIEWS.length + 2));
    expect(verdicts.filter((v) => !v.met).map((v) => v.target)).toEqual([
      `${STAFF_VIEWS[6]}: ≤ 2 ms of database time per request (1,000,000 carts, 500 stores, 10 years)`,
    ]);
  });
});

describe('the overload runs (issue 19: 200 connections)', () => {
  const overload = (fields: Partial<OverloadRow> = {}): OverloadRow => ({
    scenario: 'GET carts/{id}/',
    rps: 1000,
    p99: 500,
    ok: 5000,
    unavailable: 0,
    unavailableWithoutRetryAfter: 0,
    other: 0,
    errors: 0,
    peakRssMb: 140,
    ...fields,
  });
  const verdicts = (rows: OverloadRow[]) =>
    judgeOverload(rows).map((v) => [v.target.split(':')[1]!.trim(), v.met]);

  it('2xx and 503 with Retry-After pass; anything else, a timeout or a bare 503 fails', () => {
    expect(verdicts([overload(), overload({ unavailable: 40 })])).toEqual([
      ['every answer 2xx or 503 with Retry-After, none past its bound', true],
      ['peak RSS ≤ 150 MB', true],
    ]);
    for (const bad of [
      { other: 1 },
      { errors: 1 },
      { unavailable: 2, unavailableWithoutRetryAfter: 1 },
    ]) {
      expect(verdicts([overload(), overload(bad)])[0]![1]).toBe(false);
    }
    expect(verdicts([overload({ peakRssMb: 151 })])[1]![1]).toBe(false);
  });

  it('are judged with the other targets when the run has them', () => {
    const rows = [row('GET /healthz', 100)];
    expect(judge(rows).some((v) => v.target.startsWith('overload'))).toBe(false);
    const failed = judge(rows, [overload({ other: 3 })]).find((v) =>
      v.target.startsWith('overload (200 connections): every answer'),
    );
    expect(failed?.met).toBe(false);
    expect(failed?.figure).toContain('3 other');
  });
});
