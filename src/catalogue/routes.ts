import type { App } from '../deps.js';
import { requireUpstreamToken, upstreamToken } from '../http/auth.js';
import { errors } from '../http/errors.js';
import {
  ArticleParamsSchema,
  CategoryTreesSchema,
  ProductPriceSchema,
  ProductSchema,
  ProductStockSchema,
  StockQuerySchema,
} from './schemas.js';

const tags = ['catalogue'];

const LIVE =
  "Fetched live from the upstream system on every call, with the caller's upstream token " +
  '(header `Authorization-Upstream: Bearer <upstream_token>`, required: 400 ' +
  '`upstream_token_missing` without it; 401 `upstream_token_not_valid` when upstream ' +
  'refuses it). Only the fields listed here are returned; decimal amounts are strings ' +
  'passed through unchanged. An unknown article number, one longer than 64 characters, or ' +
  '`.` or `..` (a dot segment upstream; not sent) is 404. Upstream failures: 502 ' +
  '`upstream_error` (unusable answer, including one that ' +
  'does not fit this shape), 503 `upstream_unavailable`, 504 `upstream_timeout`.';

export default async function catalogueRoutes(app: App): Promise<void> {
  const { upstream } = app.deps;

  app.get(
    '/products/:article_number/',
    {
      config: { upstream: 'required-token' },
      schema: {
        tags,
        operationId: 'getProduct',
        summary: 'A product, from the upstream system',
        description: LIVE,
        params: ArticleParamsSchema,
        response: { 200: ProductSchema },
      },
    },
    async (request) => {
      const token = requireUpstreamToken(request);
      const product = await upstream.product({ token }, request.params.article_number);
      if (!product) throw errors.notFound();
      return product;
    },
  );

  app.get(
    '/products/:article_number/price/',
    {
      config: { upstream: 'required-token' },
      schema: {
        tags,
        operationId: 'getProductPrice',
        summary: "The caller's price of a product (prices are customer-specific)",
        description: LIVE,
        params: ArticleParamsSchema,
        response: { 200: ProductPriceSchema },
      },
    },
    async (request) => {
      const token = requireUpstreamToken(request);
      const price = await upstream.price({ token }, request.params.article_number);
      if (!price) throw errors.notFound();
      return price;
    },
  );

  app.get(
    '/products/:article_number/stock/',
    {
      config: { upstream: 'required-token' },
      schema: {
        tags,
        operationId: 'getProductStock',
        summary: 'Stock of a product at a location',
        description: `\`location_id\` is required (400 on \`location_id\` when missing or blank; surrounding spaces are dropped). A location that does not stock the product answers 200 with \`stocked: false\`. ${LIVE}`,
        params: ArticleParamsSchema,
        querystring: StockQuerySchema,
        response: { 200: ProductStockSchema },
      },
    },
    async (request) => {
      const locationId = request.query.location_id.trim();
      if (locationId === '') throw errors.field('location_id', 'This field may not be blank.');
      const token = requireUpstreamToken(request);
      const stock = await upstream.stock({ token }, request.params.article_number, locationId);
      if (!stock) throw errors.notFound();
      return stock;
    },
  );

  app.get(
    '/categories/',
    {
      config: { upstream: 'optional-token' },
      schema: {
        tags,
        operationId: 'listCategories',
        summary: 'The category trees, from the upstream system',
        description:
          "Fetched live from the upstream system on every call: with the caller's " +
          '`Authorization-Upstream` token when sent (401 `upstream_token_not_valid` when ' +
          'upstream refuses it), otherwise with the service account. Nodes carry `id`, ' +
          '`name`, `slug` and, where upstream gives them, `sort` and `children`; leaves have ' +
          'no `children`. Upstream failures: 502, 503, 504 as for products.',
        response: { 200: CategoryTreesSchema },
      },
    },
    async (request) => {
      const token = upstreamToken(request);
      return upstream.categories(token ? { token } : 'service');
    },
  );
}
