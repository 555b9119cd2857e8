import type { FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import { errors } from './errors.js';
import { absoluteUrl } from './links.js';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export const PageQuery = {
  page: Type.Optional(Type.String({ description: 'Page number, from 1' })),
  page_size: Type.Optional(
    Type.String({
      description: `Items per page (default ${DEFAULT_PAGE_SIZE}, at most ${MAX_PAGE_SIZE})`,
    }),
  ),
};

/** A page of `item`s; named `<item>Page` in the OpenAPI document when the item is named. */
export function Paged<T extends TSchema>(item: T) {
  const title = (item as { title?: unknown }).title;
  return Type.Object(
    {
      count: Type.Integer(),
      next: Type.Union([Type.String({ format: 'uri' }), Type.Null()]),
      previous: Type.Union([Type.String({ format: 'uri' }), Type.Null()]),
      results: Type.Array(item),
    },
    typeof title === 'string' ? { title: `${title}Page` } : {},
  );
}

export interface Page {
  page: number;
  size: number;
  offset: number;
}

/**
 * `page` that is not a positive integer is DRF's 404 "Invalid page." (an empty `page=` is
 * page 1, as in DRF); a bad size falls back to the default.
 */
export function pageOf(query: { page?: string; page_size?: string }): Page {
  const page =
    query.page === undefined || query.page === ''
      ? 1
      : /^\d{1,9}$/.test(query.page)
        ? Number(query.page)
        : 0;
  if (page < 1) throw errors.invalidPage();
  let size = DEFAULT_PAGE_SIZE;
  if (
    query.page_size !== undefined &&
    /^\d{1,9}$/.test(query.page_size) &&
    Number(query.page_size) > 0
  ) {
    size = Math.min(Number(query.page_size), MAX_PAGE_SIZE);
  }
  return { page, size, offset: (page - 1) * size };
}

/**
 * The envelope, with absolute `next`/`previous` that keep the other query parameters, on the
 * link base (PUBLIC_URL, else the listening address: src/http/links.ts), never on a host a
 * request header names.
 */
export function envelope<T>(request: FastifyRequest, page: Page, count: number, results: T[]) {
  const lastPage = Math.max(1, Math.ceil(count / page.size));
  if (page.page > lastPage) throw errors.invalidPage();
  const link = (n: number) => {
    const url = absoluteUrl(request, request.url);
    if (n === 1) url.searchParams.delete('page');
    else url.searchParams.set('page', String(n));
    return url.toString();
  };
  return {
    count,
    next: page.page < lastPage ? link(page.page + 1) : null,
    previous: page.page > 1 ? link(page.page - 1) : null,
    results,
  };
}

/**
 * The envelope as JSON text around results already written as the JSON text of an array (in
 * the key order of `Paged`: what its serializer writes).
 */
export function envelopeText(
  request: FastifyRequest,
  page: Page,
  count: number,
  results: string,
): string {
  const { next, previous } = envelope(request, page, count, []);
  return `{"count":${count},"next":${JSON.stringify(next)},"previous":${JSON.stringify(previous)},"results":${results}}`;
}

/**
 * One page of a list: counts first, fetches rows only when the page can hold any, and
 * wraps them in the envelope (a page past the end is 404 without fetching).
 */
export async function paginate<T>(
  request: FastifyRequest,
  page: Page,
  count: () => Promise<number>,
  fetchPage: (limit: number, offset: number) => Promise<T[]>,
) {
  const total = await count();
  const results = total > page.offset ? await fetchPage(page.size, page.offset) : [];
  return envelope(request, page, total, results);
}
