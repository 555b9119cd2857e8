import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { type PageSource, tablePage } from '../db/pages.js';
import { options } from '../db/schema.js';
import type { Option } from './schemas.js';

export function optionRecord(row: typeof options.$inferSelect): Option {
  return {
    id: row.id,
    name: row.name,
    public_name: row.publicName,
    type: row.type,
    value: row.value,
    file: row.file,
    is_list: row.isList,
    is_public: row.isPublic,
  };
}

/**
 * The public options, by name then id, every caller alike; `name` keeps the one of that
 * exact name (as django-filter: an empty value is no filter).
 */
export function publicOptions(db: Db, name: string | undefined): PageSource<Option> {
  const where = and(eq(options.isPublic, true), name ? eq(options.name, name) : undefined);
  return tablePage(db, options, {
    where,
    orderBy: [asc(options.name), asc(options.id)],
    records: (rows) => rows.map(optionRecord),
  });
}
