import { describe, expect, it } from 'vitest';
import { readCartFilter } from '../../src/carts/filter.js';
import type { TimeSeriesQuery } from '../../src/carts/schemas.js';
import { seriesStatement, statsStatement } from '../../src/carts/stats.js';
import { Params } from '../../src/db/statement.js';
import type { AuthUser } from '../../src/http/auth.js';

/**
 * The stats and series asked for most (staff's, and a customer's of their own carts in the
 * same shapes) are fixed statements, prepared and planned once
 * per connection: a request of one of those shapes must find its statement (else it pays a
 * parse and a plan every time, half of its database time).
 */
const user = (id: number, isStaff: boolean) => ({ id, isStaff, isAdmin: false }) as AuthUser;
const filterOf = (who: AuthUser, query: Record<string, string>) =>
  readCartFilter(who, query, Date.now() * 1000);
const stats = (who: AuthUser, query: Record<string, string>) =>
  statsStatement(filterOf(who, query), new Params());
const series = (who: AuthUser, query: Record<string, string>) =>
  seriesStatement(filterOf(who, query), query as TimeSeriesQuery, new Params());

const RANGE = { created_after: '2025-03-01T10:11:12Z', created_before: '2025-09-15T13:14:15Z' };
const STAFF_SHAPES: Record<string, string>[] = [
  {},
  { gln: '4000000000017' },
  RANGE,
  { created_after: RANGE.created_after },
  { created_before: RANGE.created_before },
];

describe('the hot stats and series of carts', () => {
  it('are named for staff and customers over all carts, a store and dates; planned once when they have values', () => {
    for (const who of [user(9, true), user(7, false), user(8, false)]) {
      for (const shape of STAFF_SHAPES) {
        const fixed = stats(who, shape);
        expect(fixed.name).toBeDefined();
        // A customer's has their id as a value.
        expect(fixed.genericPlan).toBe(Object.keys(shape).length > 0 || !who.isStaff);
        for (const interval of [undefined, 'D', 'W', 'M']) {
          for (const aggregate of [undefined, 'carts', 'items']) {
            const query = {
              ...shape,
              ...(interval && { interval }),
              ...(aggregate && { aggregate }),
            };
            expect(series(who, query).name).toBeDefined();
          }
        }
      }
    }
    // One statement per shape for all customers: the id is a value, not in the text.
    expect(stats(user(7, false), {}).name).toBe(stats(user(8, false), {}).name);
    expect(stats(user(7, false), {}).name).not.toBe(stats(user(9, true), {}).name);
  });

  it('are not named for other shapes (built per request, never kept)', () => {
    expect(stats(user(7, false), { checkout: 'True' }).name).toBeUndefined();
    expect(stats(user(9, true), { checkout: 'True' }).name).toBeUndefined();
    expect(stats(user(9, true), { gln: '4000000000017', ...RANGE }).name).toBeUndefined();
    expect(series(user(7, false), { interval: 'H' }).name).toBeUndefined();
    expect(series(user(9, true), { interval: 'H' }).name).toBeUndefined();
    expect(series(user(9, true), { interval: 'D', active: 'True' }).name).toBeUndefined();
  });
});
