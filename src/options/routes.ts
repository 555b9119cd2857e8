import { and, asc, eq, sql } from 'drizzle-orm';
import { options } from '../db/schema.js';
import type { App } from '../deps.js';
import { Paged, pageOf, paginate } from '../http/pagination.js';
import { Option, OptionListQuery } from './schemas.js';

function optionRecord(row: typeof options.$inferSelect) {
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

export default async function optionsRoutes(app: App): Promise<void> {
  const { db } = app.deps.database;

  app.get(
    '/options/',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['options'],
        summary: 'Public configuration options',
        description:
          'No token needed (one sent is ignored). Only options marked public are listed, ' +
          'for every caller, administrators included; ordered by name. `name` filters by ' +
          'exact name (an empty value does not filter).',
        security: [],
        querystring: OptionListQuery,
        response: { 200: Paged(Option) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const name = request.query.name;
      // As django-filter: an empty value is no filter.
      const where = and(eq(options.isPublic, true), name ? eq(options.name, name) : undefined);
      return paginate(
        request,
        page,
        async () => {
          const [{ count }] = await db
            .select({ count: sql<number>`count(*)::int` })
            .from(options)
            .where(where);
          return count;
        },
        async (limit, offset) => {
          const rows = await db
            .select()
            .from(options)
            .where(where)
            .orderBy(asc(options.name), asc(options.id))
            .limit(limit)
            .offset(offset);
          return rows.map(optionRecord);
        },
      );
    },
  );
}
