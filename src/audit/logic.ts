import { userInfo } from 'node:os';
import { formatMicros } from '../clock.js';
import type { Db, Tx } from '../db/client.js';
import { auditEvents } from '../db/schema.js';
import type { AuditKind, AuditVia } from './schemas.js';

export interface AuditEntry {
  kind: AuditKind;
  via: AuditVia;
  actorId?: number | null;
  storeId?: number | null;
  userId?: number | null;
  objectId?: number | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/** The operating-system user running the admin command ('' when the system cannot tell). */
function operatorName(): string {
  try {
    return userInfo().username;
  } catch {
    return '';
  }
}

/**
 * Appends one event to the trail, in the caller's transaction: the change and its record
 * commit together or not at all.
 */
export async function recordAudit(
  tx: Tx | Db,
  entry: AuditEntry,
  nowMicros: number,
): Promise<void> {
  await tx.insert(auditEvents).values({
    created: formatMicros(nowMicros),
    kind: entry.kind,
    via: entry.via,
    actorId: entry.actorId ?? null,
    operator: entry.via === 'admin-command' ? operatorName() : null,
    storeId: entry.storeId ?? null,
    userId: entry.userId ?? null,
    objectId: entry.objectId ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}

/** Only the fields whose value changed, before and after; null when nothing changed. */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } | null {
  const keys = Object.keys(after).filter(
    (key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]),
  );
  if (keys.length === 0) return null;
  return {
    before: Object.fromEntries(keys.map((key) => [key, before[key] ?? null])),
    after: Object.fromEntries(keys.map((key) => [key, after[key]])),
  };
}
