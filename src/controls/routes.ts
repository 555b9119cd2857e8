import type { App } from '../deps.js';
import { currentUser } from '../http/auth.js';
import { pagedRoute } from '../http/paged-route.js';
import { IdParamsSchema } from '../http/schemas.js';
import { createControl, rejectControl, verifyControl } from './logic.js';
import { controlFilter, countControls, getControl, listControls } from './queries.js';
import {
  ControlCreateBodySchema,
  ControlListQuerySchema,
  ControlSchema,
  ControlStatsQuerySchema,
  ControlStatsSchema,
  ControlUpdateBodySchema,
  ControlUpdatedSchema,
} from './schemas.js';
import { controlStats } from './stats.js';

const tags = ['controls'];

export default async function controlsRoutes(app: App): Promise<void> {
  const { deps, events } = app;
  const { database, clock } = deps;
  const { db } = database;

  app.post(
    '/controls/',
    {
      config: { auth: 'admin' },
      schema: {
        tags,
        operationId: 'createControl',
        summary: 'Control the active carts of a user in a store (administrators)',
        description:
          'Attaches every cart of `user` in `store` that is active now (within the store’s ' +
          '`active_period` since its last activity, checked out or not). No active cart: 400 ' +
          '`non_field_errors`. An unknown user or store is a 400 on that field. `controller` ' +
          'is the calling administrator; `verified_at` is null while pending and set when the ' +
          'control is created `verified`.',
        body: ControlCreateBodySchema,
        response: { 201: ControlSchema },
      },
    },
    async (request, reply) => {
      const control = await createControl(
        db,
        events.withLog(request.log),
        currentUser(request),
        request.body,
        clock.nowMicros(),
      );
      return reply.code(201).send(control);
    },
  );

  app.patch(
    '/controls/:id/',
    {
      config: { auth: 'admin' },
      schema: {
        tags,
        operationId: 'verifyControl',
        summary: 'Verify a control (administrators)',
        description:
          'The only transition is `pending` → `verified`, which sets `verified_at`. ' +
          'Verifying a control that is already verified answers 200 and changes nothing ' +
          '(`verified_at` keeps its first value), so a retried request is harmless. ' +
          '`status: "pending"` is a 400 on `status`: a verification cannot be undone. ' +
          'The answer is the update form of interface.md: `cart` (the lowest cart id of the ' +
          'control, or null) in place of `carts`, and no `store` or `controller`; ' +
          '`GET controls/{id}/` gives the full form.',
        params: IdParamsSchema,
        body: ControlUpdateBodySchema,
        response: { 200: ControlUpdatedSchema },
      },
    },
    async (request) =>
      verifyControl(
        db,
        events.withLog(request.log),
        currentUser(request),
        Number(request.params.id),
        request.body.status,
        clock.nowMicros(),
      ),
  );

  app.delete(
    '/controls/:id/',
    {
      config: { auth: 'admin' },
      schema: {
        tags,
        operationId: 'rejectControl',
        summary: 'Reject a pending control (administrators)',
        description:
          'Removes a `pending` control and its link to the carts: 204, no body (the carts ' +
          'stay as they are). The interface knows only `pending` and `verified`, so a ' +
          'rejected control is not kept. A verified control is a record of a check made: ' +
          '400 `non_field_errors`, and it stays. Unknown id: 404. No notification is sent. ' +
          'The rejection is kept in the audit trail (`GET audit-events/`): who, when, and the ' +
          'control as it was.',
        params: IdParamsSchema,
      },
    },
    async (request, reply) => {
      await rejectControl(db, currentUser(request), Number(request.params.id), clock.nowMicros());
      return reply.code(204).send();
    },
  );

  pagedRoute(app, '/controls/', {
    schema: {
      tags,
      operationId: 'listControls',
      summary: 'List controls (customers: their own; staff and admins: all)',
      description:
        'Newest first (`ordering`: `created` or `-created`). Filters: `status`, `store` ' +
        '(store id), `user` (user id; a customer still sees only their own), `is_random`, ' +
        "`created_after`, `created_before` (as the cart list's: a date or a date-time; an " +
        'unreadable one is a 400 on the parameter). ' +
        'Random controls are drawn on checkout of a cart with a store: with N = the ' +
        "store's `carts_for_random_control` (0: never), a checkout is drawn with " +
        'probability 1/N; under the option `criteria_for_random_controls = users` only ' +
        "the user's first checkout in that store per UTC day is drawn on. A drawn control " +
        "is pending, `is_random: true`, `controller: null`, and holds the user's active " +
        'carts in that store.',
      querystring: ControlListQuerySchema,
    },
    item: ControlSchema,
    list: (request) => {
      const where = controlFilter(currentUser(request), request.query);
      return {
        count: () => countControls(db, where),
        rows: (limit, offset) => listControls(db, where, request.query.ordering, limit, offset),
      };
    },
  });

  app.get(
    '/controls/stats/',
    {
      config: { auth: 'staff' },
      schema: {
        tags,
        operationId: 'getControlStats',
        summary: 'Controls of a period by outcome and kind (staff and administrators)',
        description:
          'The controls created in the period (`created_after`, `created_before`: as the ' +
          "control list's, a date or a date-time) in `store` (store id; omitted: all stores), " +
          'counted by kind (`random`: drawn at checkout; `chosen`: created by an ' +
          'administrator) and by what became of them: `created` = `verified` + `rejected` + ' +
          '`pending`. Rejected controls are gone from `GET controls/` but counted here, with ' +
          'their kind. `by_store=True` adds `stores`: the same figures for each store that ' +
          'had a control in the period. Read from rollups kept in the transaction of every ' +
          'create, verify and reject, so they are exact. Customers: 403.',
        querystring: ControlStatsQuerySchema,
        response: { 200: ControlStatsSchema },
      },
    },
    async (request) => controlStats(database, request.query),
  );

  app.get(
    '/controls/:id/',
    {
      schema: {
        tags,
        operationId: 'getControl',
        summary: 'One control (customers: only their own)',
        params: IdParamsSchema,
        response: { 200: ControlSchema },
      },
    },
    async (request) => getControl(db, currentUser(request), Number(request.params.id)),
  );
}
