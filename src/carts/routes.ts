import type { App } from '../deps.js';
import { currentUser, upstreamToken } from '../http/auth.js';
import { idempotent } from '../http/idempotency.js';
import { sendJsonText } from '../http/json-text.js';
import { pagedRoute } from '../http/paged-route.js';
import { IdParamsSchema } from '../http/schemas.js';
import { IdempotencyHeadersSchema } from '../idempotency/schemas.js';
import { checkoutCart } from './checkout.js';
import { ClaimReleases } from './claims.js';
import { createCart } from './logic.js';
import { cartList, getCart } from './queries.js';
import {
  CartCreateBodySchema,
  CartCreatedSchema,
  CartListedSchema,
  CartListQuerySchema,
  CartStatsQuerySchema,
  CartStatsSchema,
  CheckoutBodySchema,
  CheckoutRecordSchema,
  TimeSeriesQuerySchema,
  TimeSeriesSchema,
} from './schemas.js';
import { cartStats, cartTimeSeries } from './stats.js';

const tags = ['carts'];

export default async function cartRoutes(app: App): Promise<void> {
  const { deps, events } = app;
  const { database, clock } = deps;
  // Checkout claims whose release waits for the database; dropped on close (they go stale).
  const releases = new ClaimReleases(deps, app.log);
  app.addHook('onClose', async () => releases.close());

  app.post(
    '/carts/',
    {
      schema: {
        tags,
        operationId: 'createCart',
        summary: 'Create a cart (in a store, or with no store: the customer warehouse)',
        headers: IdempotencyHeadersSchema,
        body: CartCreateBodySchema,
        response: { 201: CartCreatedSchema },
      },
    },
    async (request, reply) => {
      const { status, answer } = await idempotent(request, reply, 201, ({ db }) =>
        createCart(db, currentUser(request), request.body, clock.nowMicros()),
      );
      return reply.code(status).send(answer);
    },
  );

  pagedRoute(app, '/carts/', {
    schema: {
      tags,
      operationId: 'listCarts',
      summary: 'List the carts available to the user (staff: all carts)',
      querystring: CartListQuerySchema,
    },
    item: CartListedSchema,
    // Each cart's JSON written by PostgreSQL (carts/queries.ts).
    listTexts: (request) =>
      cartList(database, currentUser(request), request.query, clock.nowMicros()),
  });

  app.get(
    '/carts/stats/',
    {
      config: { callerInRead: true },
      schema: {
        tags,
        operationId: 'getCartStats',
        summary: 'Total quantity and item lines of the filtered carts',
        querystring: CartStatsQuerySchema,
        response: { 200: CartStatsSchema },
      },
    },
    async (request) => cartStats(database, request, request.query, clock.nowMicros()),
  );

  app.get(
    '/carts/time-series/',
    {
      config: { callerInRead: true },
      schema: {
        tags,
        operationId: 'getCartTimeSeries',
        summary: 'Carts (or their item lines) per UTC month, week, day or hour of creation',
        querystring: TimeSeriesQuerySchema,
        response: { 200: TimeSeriesSchema },
      },
    },
    // Written by the schema's serializer, entry by entry (carts/series-json.ts).
    async (request, reply) =>
      sendJsonText(
        reply,
        await cartTimeSeries(database, request, request.query, clock.nowMicros()),
      ),
  );

  app.get(
    '/carts/:id/',
    {
      config: { callerInRead: true },
      schema: {
        tags,
        operationId: 'getCart',
        summary: 'One cart, in list form',
        params: IdParamsSchema,
        response: { 200: CartListedSchema },
      },
    },
    // Written by PostgreSQL (carts/queries.ts).
    async (request, reply) =>
      sendJsonText(reply, await getCart(database, request, Number(request.params.id))),
  );

  app.patch(
    '/carts/:id/checkout/',
    {
      // docs/http-contract.md: upstream's own 503 JSON is passed through.
      // Behind a pooler the claim looks the caller up in its own call (migration 0023).
      config: {
        passUpstream503: true,
        upstream: 'optional-token',
        conflicts: true,
        callerInRead: true,
      },
      schema: {
        tags,
        operationId: 'checkoutCart',
        summary: 'Check out: place the order upstream, exactly once',
        description:
          'Uses `Authorization-Upstream` when sent, else the service account. A cart that has ' +
          'a checkout record answers that record. 409 `checkout_in_progress` while another ' +
          'checkout of the cart is in flight (retry). Upstream 503 JSON is passed through ' +
          'and flags the cart with `checkout_availability_error`. 502 `upstream_error` when ' +
          'the ERP placed the order but its answer cannot be stored: the cart is checked out ' +
          'with no record yet, and the next checkout asks the ERP again (decision 0001).',
        params: IdParamsSchema,
        body: CheckoutBodySchema,
        response: { 200: CheckoutRecordSchema },
      },
    },
    async (request) => {
      const token = upstreamToken(request);
      return checkoutCart(
        deps,
        events.withLog(request.log),
        releases,
        request,
        Number(request.params.id),
        token ? { token } : 'service',
      );
    },
  );
}
