import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client.js';

/**
 * A list read one page at a time: how many rows match, and the rows of one page. An area's
 * queries.ts builds one from a request's filter; `pagedRoute` (src/http/pagination.ts)
 * counts first and reads a page only when it can hold any row.
 */
export interface PageSource<T> {
  count(): Promise<number>;
  rows(limit: number, offset: number): Promise<T[]>;
  /** Both at once, where one statement can answer them (the hot lists). */
  page?(limit: number, offset: number): Promise<{ count: number; rows: T[] }>;
}

/** How many rows of `table` match `where`: one `count(*)` statement. */
export async function countRows(db: Db, table: PgTable, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(table).where(where);
  return row.count;
}

/** What `tablePage` reads: the rows of one table, filtered and ordered, as records. */
export interface TablePageOptions<Row, T> {
  /** Unset: every row. */
  where?: SQL;
  /** Ends with a unique column, so that pages neither repeat nor skip a row. */
  orderBy: (SQL | AnyPgColumn)[];
  /** One page of rows as records: a batch, so it may read what they hold in one more query. */
  records: (rows: Row[]) => T[] | Promise<T[]>;
}

/** The rows of `table` that match `where`, counted and read a page at a time in `orderBy`. */
export function tablePage<Table extends PgTable, T>(
  db: Db,
  table: Table,
  { where, orderBy, records }: TablePageOptions<Table['$inferSelect'], T>,
): PageSource<T> {
  return {
    count: () => countRows(db, table, where),
    rows: async (limit, offset) => {
      const rows = await db
        .select()
        .from(table as PgTable)
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset);
      return records(rows as Table['$inferSelect'][]);
    },
  };
}

/** Rows by a numeric key (a parent's id), for attaching children read in one query. */
export function groupBy<T>(rows: T[], key: (row: T) => number): Map<number, T[]> {
  const map = new Map<number, T[]>();
  for (const row of rows) {
    const list = map.get(key(row));
    if (list) list.push(row);
    else map.set(key(row), [row]);
  }
  return map;
}
