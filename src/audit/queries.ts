import { aliasedTable, and, type asc, desc, eq, gt, lt, type SQL, sql } from 'drizzle-orm';
import { formatDbTimestamp } from '../clock.js';
import type { Db } from '../db/client.js';
import type { PageSource } from '../db/pages.js';
import { auditEvents, stores, users } from '../db/schema.js';
import { dateTimeQuery } from '../http/query.js';
import type { AuditEvent, AuditListQuery } from './schemas.js';

/** The WHERE of the trail's list (a 400 on an unreadable date). */
export function auditFilter(query: AuditListQuery): SQL | undefined {
  const after = dateTimeQuery('created_after', query.created_after);
  const before = dateTimeQuery('created_before', query.created_before);
  return and(
    query.store === undefined
      ? undefined
      : eq(auditEvents.storeId, sql`(select id from ${stores} where gln = ${query.store})`),
    query.actor === undefined ? undefined : eq(auditEvents.actorId, Number(query.actor)),
    query.user === undefined ? undefined : eq(auditEvents.userId, Number(query.user)),
    query.kind === undefined ? undefined : eq(auditEvents.kind, query.kind),
    after === undefined ? undefined : gt(auditEvents.created, after),
    before === undefined ? undefined : lt(auditEvents.created, before),
  );
}

const customers = aliasedTable(users, 'customers');

/**
 * Events newest first (or oldest, `asc`), with the store's GLN and the actor's and the
 * customer's names (the console writes sentences of them). `names: false` (a person's data
 * export): the actor as `{id, username}` and no `customer`, so one person's export does not
 * carry the names of the staff who acted on them.
 */
export function auditEventsPage(
  db: Db,
  where: SQL | undefined,
  order: typeof asc = desc,
  { names = true }: { names?: boolean } = {},
): PageSource<AuditEvent> {
  return {
    count: async () => {
      const [{ count }] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(auditEvents)
        .where(where);
      return count;
    },
    rows: async (limit, offset) => {
      const rows = await db
        .select({
          event: auditEvents,
          username: users.username,
          first: users.firstName,
          last: users.lastName,
          gln: stores.gln,
          customer: {
            id: customers.id,
            username: customers.username,
            first_name: customers.firstName,
            last_name: customers.lastName,
          },
        })
        .from(auditEvents)
        .leftJoin(users, eq(users.id, auditEvents.actorId))
        .leftJoin(customers, eq(customers.id, auditEvents.userId))
        .leftJoin(stores, eq(stores.id, auditEvents.storeId))
        .where(where)
        .orderBy(order(auditEvents.created), order(auditEvents.id))
        .limit(limit)
        .offset(offset);
      return rows.map(({ event, username, first, last, gln, customer }) => ({
        id: event.id,
        created: formatDbTimestamp(event.created) as string,
        kind: event.kind as AuditEvent['kind'],
        via: event.via as AuditEvent['via'],
        actor:
          event.actorId === null
            ? null
            : {
                id: event.actorId,
                username: username ?? '',
                ...(names ? { first_name: first ?? '', last_name: last ?? '' } : {}),
              },
        operator: event.operator,
        store: gln,
        user: event.userId,
        ...(names ? { customer: customer?.id ? customer : null } : {}),
        object: event.objectId,
        before: event.before as AuditEvent['before'],
        after: event.after as AuditEvent['after'],
      }));
    },
  };
}
