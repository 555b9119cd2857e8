import type { App } from '../deps.js';
import { currentUser } from '../http/auth.js';
import { errors } from '../http/errors.js';
import { pagedRoute } from '../http/paged-route.js';
import { setStoreHours, updateStore } from './logic.js';
import { allStores, findStore, storeHoursOf } from './queries.js';
import {
  GlnParamsSchema,
  StoreHoursBodySchema,
  StoreHoursSchema,
  StoreListQuerySchema,
  StoreSchema,
  StoreUpdateBodySchema,
} from './schemas.js';

const tags = ['stores'];

export default async function storesRoutes(app: App): Promise<void> {
  const { database, clock } = app.deps;
  const { db } = database;

  pagedRoute(app, '/stores/', {
    schema: {
      tags,
      operationId: 'listStores',
      summary: 'List the stores, ordered by name then id',
      querystring: StoreListQuerySchema,
    },
    item: StoreSchema,
    list: () => allStores(db),
  });

  app.get(
    '/stores/:gln/',
    {
      schema: {
        tags,
        operationId: 'getStore',
        summary: 'One store by GLN',
        description: 'A 404 means the GLN is not a store of the service (use it to check a GLN).',
        params: GlnParamsSchema,
        response: { 200: StoreSchema },
      },
    },
    async (request) => findStore(db, request.params.gln),
  );

  app.patch(
    '/stores/:gln/',
    {
      config: { auth: 'staff' },
      schema: {
        tags,
        operationId: 'updateStore',
        summary: 'Change a store (staff and admins)',
        description:
          'Changes only the fields sent: `active_period` (`HH:MM:SS` or `HH:MM`, hours may ' +
          'exceed 23), `name` (trimmed, not blank), `carts_for_random_control` (integer >= 0; ' +
          '0 disables random controls). `gln` and `id` cannot be changed and are ignored. ' +
          'Customers get 403.',
        params: GlnParamsSchema,
        body: StoreUpdateBodySchema,
        response: { 200: StoreSchema },
      },
    },
    async (request) =>
      updateStore(db, currentUser(request), request.params.gln, request.body, clock.nowMicros()),
  );

  app.get(
    '/stores/:gln/store-hours/',
    {
      schema: {
        tags,
        operationId: 'getStoreHours',
        summary: 'Opening hours of a store: seven entries, Monday first',
        description:
          "Always seven entries `monday` … `sunday`. Times are `HH:MM:SS`, in the store's " +
          'local time; null for both means closed (also for a weekday never set).',
        params: GlnParamsSchema,
        response: { 200: StoreHoursSchema },
      },
    },
    async (request) => storeHoursOf(db, request.params.gln),
  );

  app.post(
    '/stores/:gln/store-hours/',
    {
      config: { auth: 'staff' },
      schema: {
        tags,
        operationId: 'setStoreHours',
        summary: 'Set opening hours of some weekdays (staff and admins)',
        description:
          'Body: a non-empty array of `{weekday, opening_time, closing_time}`, each weekday at ' +
          'most once; only the weekdays given change, all of them or none. Times `HH:MM` or ' +
          '`HH:MM:SS`; both null (closed) or both set with opening before closing (no ' +
          'overnight hours). Answers 200 with no body. Errors (400): about the whole body ' +
          'under `non_field_errors` (not an array, empty, more than seven entries); about an ' +
          'entry under `"<index>.<field>"`, index from 0 (an entry that is not an object: ' +
          'under `"<index>"`), e.g. ' +
          '`{"2.closing_time": ["Closing time must be after opening time."]}`. ' +
          'Customers get 403.',
        params: GlnParamsSchema,
        body: StoreHoursBodySchema,
      },
      // No body at all reads as "not a list", not as "may not be null".
      preValidation: async (request) => {
        if (request.body === undefined) throw errors.nonField('Expected a list of items.');
      },
    },
    async (request, reply) => {
      await setStoreHours(
        db,
        currentUser(request),
        request.params.gln,
        request.body,
        clock.nowMicros(),
      );
      return reply.code(200).send();
    },
  );
}
