import { describe, expect, it } from 'vitest';
import { readCartFilter } from '../../src/carts/filter.js';
import { pageStatement } from '../../src/carts/queries.js';
import { Params } from '../../src/db/statement.js';
import type { AuthUser } from '../../src/http/auth.js';

/**
 * The commonest pages are fixed statements, prepared once per connection: a request of one
 * of those shapes must find its statement (else it silently pays a plan every time).
 */
const user = (id: number, isStaff: boolean) => ({ id, isStaff, isAdmin: false }) as AuthUser;
const named = (
  who: AuthUser,
  query: Record<string, string>,
  ordering?: string,
  [limit, offset] = [20, 0],
) =>
  pageStatement(
    readCartFilter(who, query, Date.now() * 1000),
    ordering,
    new Params(),
    limit,
    offset,
  ).name !== undefined;

describe('the hot pages of the cart list', () => {
  it('are named for a customer and for staff over all carts, a store and dates', () => {
    const range = { created_after: '2025-03-01T10:11:12Z', created_before: '2025-09-15T13:14:15Z' };
    expect(named(user(7, false), {})).toBe(true);
    expect(named(user(8, false), {}, '-created')).toBe(true);
    expect(named(user(9, true), {})).toBe(true);
    expect(named(user(9, true), { gln: '4000000000017' })).toBe(true);
    expect(named(user(9, true), range)).toBe(true);
    expect(named(user(9, true), { created_after: range.created_after })).toBe(true);
    expect(named(user(9, true), { created_before: range.created_before })).toBe(true);
  });

  it('are not named for other shapes (built per request, never kept)', () => {
    expect(named(user(7, false), {}, 'items_count')).toBe(false);
    expect(named(user(9, true), { active: 'True' })).toBe(false);
    expect(named(user(9, true), { gln: '4000000000017', checkout: 'True' })).toBe(false);
  });

  it('are the first page of the default size: others are built with their limit and offset', () => {
    // A plan made without values takes `limit $n` for a tenth of the rows (decision 0013).
    expect(named(user(9, true), {}, undefined, [20, 40])).toBe(false);
    expect(named(user(9, true), {}, undefined, [50, 0])).toBe(false);
    const p = new Params();
    const page = pageStatement(readCartFilter(user(9, true), {}, 0), undefined, p, 50, 100);
    expect(page.text).toContain('limit 50 offset 100');
    expect(p.values).toEqual([]);
    expect(() =>
      pageStatement(readCartFilter(user(9, true), {}, 0), undefined, p, 1.5, 0),
    ).toThrow();
  });
});
