import { and, asc, eq, gte, inArray, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { carts, checkouts, memberships, organizations, users } from '../db/schema.js';
import { NotFound } from '../errors.js';
import type { MonthlyScores, Ranking } from './schemas.js';
import { type Month, WEEK_SECONDS } from './weeks.js';

/** Shown at most; `me` and `count` still cover everyone. */
export const RANKING_LIMIT = 100;

/** A checkout counts in the month its record was created (epoch seconds, no zone arithmetic). */
const inMonth = (month: Month) =>
  and(
    gte(checkouts.created, sql`to_timestamp(${month.start})`),
    lt(checkouts.created, sql`to_timestamp(${month.end})`),
  );

/** One entry per week; null for weeks whose Monday 00:00 UTC is still ahead. */
export async function weeklyScores(
  db: Db,
  userId: number,
  month: Month,
  nowMicros: number,
): Promise<MonthlyScores> {
  const week = sql<number>`floor((extract(epoch from ${checkouts.created}) - ${month.weeks[0]}) / ${WEEK_SECONDS})::int`;
  const rows = await db
    .select({ week, score: sql`sum(${carts.totalQuantity})`.mapWith(Number) })
    .from(checkouts)
    .innerJoin(carts, eq(carts.id, checkouts.cartId))
    .where(and(eq(carts.userId, userId), inMonth(month)))
    // By position: the expression's parameters would not match a repeated expression.
    .groupBy(sql`1`);
  const byWeek = new Map(rows.map((r) => [Number(r.week), r.score]));
  return month.weeks.map((monday, index) => ({
    week: index,
    score: monday * 1_000_000 <= nowMicros ? (byWeek.get(index) ?? 0) : null,
  }));
}

/** Internal ids of the organizations ranked: the one asked for (a membership), else all. */
async function rankedOrganizations(db: Db, userId: number, organizationId?: string) {
  const rows = await db
    .select({ id: memberships.organizationId })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(
      and(
        eq(memberships.userId, userId),
        organizationId === undefined ? undefined : eq(organizations.organizationId, organizationId),
      ),
    );
  if (organizationId !== undefined && rows.length === 0) throw new NotFound('organization');
  return rows.map((r) => r.id);
}

/**
 * The caller and every member of the ranked organizations (every organization when
 * `allOrganizations`, which the route allows staff only), by the month's checked-out
 * quantity; competition ranking (1, 2, 2, 4), ties in username order.
 */
export async function ranking(
  db: Db,
  userId: number,
  month: Month,
  organizationId?: string,
  allOrganizations = false,
): Promise<Ranking> {
  const orgIds = allOrganizations ? [] : await rankedOrganizations(db, userId, organizationId);
  const members = db
    .select({ id: memberships.userId })
    .from(memberships)
    .where(
      allOrganizations
        ? undefined
        : inArray(memberships.organizationId, orgIds.length > 0 ? orgIds : [-1]),
    );
  const people = or(eq(users.id, userId), inArray(users.id, members));
  const totals = db
    .select({ userId: carts.userId, total: sql`sum(${carts.totalQuantity})`.as('total') })
    .from(checkouts)
    .innerJoin(carts, eq(carts.id, checkouts.cartId))
    .where(and(inMonth(month), or(eq(carts.userId, userId), inArray(carts.userId, members))))
    .groupBy(carts.userId)
    .as('totals');
  const score = sql`coalesce(${totals.total}, 0)`;
  const ranked = db.$with('ranked').as(
    db
      .select({
        id: users.id,
        username: users.username,
        firstName: users.firstName,
        lastName: users.lastName,
        score: sql`${score}`.as('score'),
        rank: sql`rank() over (order by ${score} desc)`.as('rank'),
        position: sql`row_number() over (order by ${score} desc, ${users.username})`.as('position'),
        count: sql`count(*) over ()`.as('count'),
      })
      .from(users)
      .leftJoin(totals, eq(totals.userId, users.id))
      .where(people),
  );
  const rows = await db
    .with(ranked)
    .select()
    .from(ranked)
    .where(or(lte(ranked.position, RANKING_LIMIT), eq(ranked.id, userId)))
    .orderBy(asc(ranked.position));
  const entry = (r: (typeof rows)[number]) => ({
    rank: Number(r.rank),
    user: { id: r.id, first_name: r.firstName, last_name: r.lastName, username: r.username },
    score: Number(r.score),
  });
  const me = rows.find((r) => r.id === userId);
  if (!me) throw new Error('the caller is missing from their own ranking');
  return {
    month: month.month,
    year: month.year,
    count: Number(me.count),
    results: rows.filter((r) => Number(r.position) <= RANKING_LIMIT).map(entry),
    me: { rank: Number(me.rank), score: Number(me.score) },
  };
}
