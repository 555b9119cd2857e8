import type { App } from '../deps.js';
import { pagedRoute } from '../http/paged-route.js';
import { auditEventsPage, auditFilter } from './queries.js';
import { AuditEventSchema, AuditListQuerySchema } from './schemas.js';

export default async function auditRoutes(app: App): Promise<void> {
  const { db } = app.deps.database;
  pagedRoute(app, '/audit-events/', {
    config: { auth: 'admin' },
    schema: {
      tags: ['audit'],
      operationId: 'listAuditEvents',
      summary: 'The trail of staff actions (administrators)',
      description:
        'Every control created (by an admin or a random draw), verified or rejected, every ' +
        'change of a store’s settings or hours, and every role or store changed by the admin ' +
        'command: who (`actor`, or `operator` for the admin command), when, what, and the ' +
        'changed values before and after. Newest first. Filters: `store` (GLN), `actor` ' +
        '(user id), `user` (the customer concerned), `kind`, `created_after`, ' +
        '`created_before`. `actor` and `customer` (the `user` concerned) carry the ' +
        'names, for screens. The trail is append-only; retention removes events older than its ' +
        'period.',
      querystring: AuditListQuerySchema,
    },
    item: AuditEventSchema,
    list: (request) => auditEventsPage(db, auditFilter(request.query)),
  });
}
