import { formatDbTimestamp } from '../clock.js';
import type { organizations } from '../db/schema.js';
import type { Organization } from './schemas.js';

/** An organization row in the form of the API (the list, and a cart's `organization`). */
export function organizationRecord(row: typeof organizations.$inferSelect): Organization {
  return {
    id: row.id,
    code: row.code,
    created: formatDbTimestamp(row.created) as string,
    name: row.name,
    organization_id: row.organizationId,
    parent_code: row.parentCode,
  };
}
