import { and, asc, desc, eq, type SQL, sql } from 'drizzle-orm';
import { controls } from '../db/schema.js';
import type { App } from '../deps.js';
import { currentUser } from '../http/auth.js';
import { errors } from '../http/errors.js';
import { Paged, pageOf, paginate } from '../http/pagination.js';
import { isTrue, parseOrdering } from '../http/query.js';
import { IdParams } from '../http/schemas.js';
import { notifyControlCreated, notifyControlVerified } from '../notifications/events.js';
import { controlsVisibleTo, createControl, verifyControl, withCarts } from './logic.js';
import {
  ControlCreateBodySchema,
  ControlListQuerySchema,
  ControlSchema,
  ControlUpdateBodySchema,
  ControlUpdatedSchema,
  type ORDERING_KEYS,
} from './schemas.js';

const tags = ['controls'];

export default async function controlsRoutes(app: App): Promise<void> {
  const { database, clock } = app.deps;
  const { db } = database;

  app.post(
    '/controls/',
    {
      config: { auth: 'admin' },
      schema: {
        tags,
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
      const admin = currentUser(request);
      const control = await createControl(db, admin, request.body, clock.nowMicros());
      await notifyControlCreated(app.deps, request.log, control);
      return reply.code(201).send(control);
    },
  );

  app.patch(
    '/controls/:id/',
    {
      config: { auth: 'admin' },
      schema: {
        tags,
        summary: 'Verify a control (administrators)',
        description:
          'The only transition is `pending` → `verified`, which sets `verified_at`. ' +
          'Verifying a control that is already verified answers 200 and changes nothing ' +
          '(`verified_at` keeps its first value), so a retried request is harmless. ' +
          '`status: "pending"` is a 400 on `status`: a verification cannot be undone. ' +
          'The answer is the update form of interface.md: `cart` (the lowest cart id of the ' +
          'control, or null) in place of `carts`, and no `store` or `controller`; ' +
          '`GET controls/{id}/` gives the full form.',
        params: IdParams,
        body: ControlUpdateBodySchema,
        response: { 200: ControlUpdatedSchema },
      },
    },
    async (request) => {
      return verifyControl(
        db,
        Number(request.params.id),
        request.body.status,
        clock.nowMicros(),
        async (id) => {
          // Committed by now: a failure here is logged, never the answer.
          try {
            const rows = await db.select().from(controls).where(eq(controls.id, id));
            const [control] = await withCarts(db, rows);
            if (control) notifyControlVerified(app.deps, request.log, control);
          } catch (error) {
            request.log.error({ err: error, control: id }, 'control.verified notification failed');
          }
        },
      );
    },
  );

  app.get(
    '/controls/',
    {
      schema: {
        tags,
        summary: 'List controls (customers: their own; staff and admins: all)',
        description:
          'Newest first (`ordering`: `created` or `-created`). Filters: `status`, `store` ' +
          '(store id), `user` (user id; a customer still sees only their own), `is_random`. ' +
          'Random controls are drawn on checkout of a cart with a store: with N = the ' +
          "store's `carts_for_random_control` (0: never), a checkout is drawn with " +
          'probability 1/N; under the option `criteria_for_random_controls = users` only ' +
          "the user's first checkout in that store per UTC day is drawn on. A drawn control " +
          "is pending, `is_random: true`, `controller: null`, and holds the user's active " +
          'carts in that store.',
        querystring: ControlListQuerySchema,
        response: { 200: Paged(ControlSchema) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { query } = request;
      const page = pageOf(query);
      const where: SQL | undefined = and(
        controlsVisibleTo(user),
        query.status === undefined ? undefined : eq(controls.status, query.status),
        query.store === undefined ? undefined : eq(controls.storeId, Number(query.store)),
        query.user === undefined ? undefined : eq(controls.userId, Number(query.user)),
        query.is_random === undefined
          ? undefined
          : eq(controls.isRandom, !!isTrue(query.is_random)),
      );
      const { descending } = parseOrdering<(typeof ORDERING_KEYS)[number]>(
        query.ordering,
        '-created',
      );
      const direction = descending ? desc : asc;
      return paginate(
        request,
        page,
        async () => {
          const [{ count }] = await db
            .select({ count: sql<number>`count(*)::int` })
            .from(controls)
            .where(where);
          return count;
        },
        async (limit, offset) => {
          const rows = await db
            .select()
            .from(controls)
            .where(where)
            .orderBy(direction(controls.created), direction(controls.id))
            .limit(limit)
            .offset(offset);
          return withCarts(db, rows);
        },
      );
    },
  );

  app.get(
    '/controls/:id/',
    {
      schema: {
        tags,
        summary: 'One control (customers: only their own)',
        params: IdParams,
        response: { 200: ControlSchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const rows = await db
        .select()
        .from(controls)
        .where(and(controlsVisibleTo(user), eq(controls.id, Number(request.params.id))));
      const [control] = await withCarts(db, rows);
      if (!control) throw errors.notFound();
      return control;
    },
  );
}
