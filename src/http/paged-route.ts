import type { FastifyContextConfig, FastifyRequest, FastifySchema } from 'fastify';
import type { Static, TObject, TSchema } from 'typebox';
import type { PageSource } from '../db/pages.js';
import type { App } from '../deps.js';
import { sendJsonText } from './json-text.js';
import { envelope, envelopeText, Paged, pageOf, paginate } from './pagination.js';

/** What `pagedRoute` declares: the route's schema without `response`, and what it lists. */
export interface PagedRouteOptions<Query extends TObject, Item extends TSchema> {
  /** The route's config (`auth`, …), as for `app.get`. */
  config?: FastifyContextConfig;
  /**
   * The OpenAPI description of the route, as for `app.get`, with its `querystring` (which
   * spreads `PageQuery`) and without `response`: the answer is `Paged(item)`.
   */
  schema: Omit<FastifySchema, 'querystring' | 'response'> & { querystring: Query };
  /** The schema of one entry of `results`. */
  item: Item;
  /** The rows the request asks for (its filter built once), counted and read a page at a time. */
  list?: (request: FastifyRequest<{ Querystring: Static<Query> }>) => PageSource<Static<Item>>;
  /**
   * Instead of `list`: the page's rows as the JSON text of an array of `item`, written by the
   * database (it must be what the item's serializer would write: the area tests that), sent
   * as it is.
   */
  listTexts?: (request: FastifyRequest<{ Querystring: Static<Query> }>) => TextPageSource;
}

/** A list whose pages come as JSON text, with their count, in one read. */
export interface TextPageSource {
  page(limit: number, offset: number): Promise<{ count: number; results: string }>;
}

/**
 * The one way to declare a paged list: `GET path` answering 200 with the envelope of
 * `Paged(item)`. The page is read from `page`/`page_size` (an invalid page is 404 "Invalid
 * page." before anything is read), then `list(request)` is counted and, when the page can
 * hold any row, read.
 */
export function pagedRoute<Query extends TObject, Item extends TSchema>(
  app: App,
  path: string,
  { config, schema, item, list, listTexts }: PagedRouteOptions<Query, Item>,
): void {
  app.get(
    path,
    {
      ...(config && { config }),
      // Widened: the envelope's type is checked where `list` is given, not through Fastify's.
      schema: { ...schema, response: { 200: Paged(item) } } as FastifySchema,
    },
    async (request, reply) => {
      const page = pageOf(request.query as { page?: string; page_size?: string });
      const typed = request as FastifyRequest<{ Querystring: Static<Query> }>;
      if (listTexts) {
        const { count, results } = await listTexts(typed).page(page.size, page.offset);
        return sendJsonText(reply, envelopeText(request, page, count, results));
      }
      if (!list) throw new Error(`pagedRoute ${path}: list or listTexts is required`);
      const source = list(typed);
      if (source.page) {
        const { count, rows } = await source.page(page.size, page.offset);
        return envelope(request, page, count, rows);
      }
      return paginate(
        request,
        page,
        () => source.count(),
        (limit, offset) => source.rows(limit, offset),
      );
    },
  );
}
