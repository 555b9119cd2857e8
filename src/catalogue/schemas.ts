import { Type } from 'typebox';

/**
 * The catalogue shapes of docs/http-contract.md are upstream's (src/upstream/schemas.ts), checked by
 * the client. They are response schemas: Fastify's serializer writes only the fields listed
 * there, so whatever else upstream sends never reaches a client.
 */
export {
  CategoryTreesSchema,
  ProductPriceSchema,
  ProductSchema,
  ProductStockSchema,
} from '../upstream/schemas.js';

export const ArticleParamsSchema = Type.Object({
  article_number: Type.String({ minLength: 1, maxLength: 64 }),
});

export const StockQuerySchema = Type.Object({
  location_id: Type.String({
    maxLength: 64,
    description: 'The location of the store (its GLN) or a warehouse',
  }),
});
