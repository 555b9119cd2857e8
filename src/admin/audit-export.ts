import { asc } from 'drizzle-orm';
import { auditEventsPage, auditFilter } from '../audit/queries.js';
import type { AuditEvent } from '../audit/schemas.js';
import type { Db } from '../db/client.js';
import { ApiError } from '../http/errors.js';
import { AdminError } from './commands.js';

/** `audit export`: the events of the filter, oldest first, in the API's form. */
export async function exportAudit(
  db: Db,
  flags: { store?: string; since?: string; until?: string },
): Promise<AuditEvent[]> {
  let where: ReturnType<typeof auditFilter>;
  try {
    where = auditFilter({
      store: flags.store,
      created_after: flags.since,
      created_before: flags.until,
    });
  } catch (err) {
    if (err instanceof ApiError) {
      const field = Object.keys(err.body)[0] === 'created_after' ? '--since' : '--until';
      throw new AdminError(`${field} must be a date (2026-03-01) or a date-time with a zone`);
    }
    throw err;
  }
  const page = auditEventsPage(db, where, asc);
  const events: AuditEvent[] = [];
  // A page at a time: the trail of years is not one query's result in memory at once twice.
  for (let offset = 0; ; offset += 1000) {
    const rows = await page.rows(1000, offset);
    events.push(...rows);
    if (rows.length < 1000) return events;
  }
}
