import { type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client.js';

/**
 * A list read one page at a time: how many rows match, and the rows of one page. An area's
 * queries.ts builds one from a request's filter; `pagedRoute` (src/http/pagination.ts)
 * counts first and reads a page only when it can hold any row.
 */
export interface PageSource<T> {
  count(): Promise<number>;
  rows(limit: number, offset: number): Promise<T[]>;
}

/** How many rows of `table` match `where`: one `count(*)` statement. */
export async function countRows(db: Db, table: PgTable, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(table).where(where);
  return row.count;
}
