import type { FastifyContextConfig, FastifyRequest, FastifySchema } from 'fastify';
import type { Static, TObject, TSchema } from 'typebox';
import type { PageSource } from '../db/pages.js';
import type { App } from '../deps.js';
import { envelope, Paged, pageOf, paginate } from './pagination.js';

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
  list: (request: FastifyRequest<{ Querystring: Static<Query> }>) => PageSource<Static<Item>>;
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
  { config, schema, item, list }: PagedRouteOptions<Query, Item>,
): void {
  app.get(
    path,
    {
      ...(config && { config }),
      // Widened: the envelope's type is checked where `list` is given, not through Fastify's.
      schema: { ...schema, response: { 200: Paged(item) } } as FastifySchema,
    },
    async (request) => {
      const page = pageOf(request.query as { page?: string; page_size?: string });
      const source = list(request as FastifyRequest<{ Querystring: Static<Query> }>);
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
