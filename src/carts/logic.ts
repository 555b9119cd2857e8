import { and, eq } from 'drizzle-orm';
import { formatDbTimestamp, formatMicros } from '../clock.js';
import type { Db } from '../db/client.js';
import { carts, memberships, organizations, stores } from '../db/schema.js';
import { Invalid } from '../errors.js';
import type { AuthUser } from '../http/auth.js';
import type { CartCreateBody, CartCreated } from './schemas.js';

/**
 * A new cart of the user: in the store of `body.store` (a GLN), or with no store (the
 * customer warehouse), for an organization the user is a member of. An unknown store and
 * an organization the user cannot use are refused together, each on its field.
 */
export async function createCart(
  db: Db,
  user: AuthUser,
  body: CartCreateBody,
  nowMicros: number,
): Promise<CartCreated> {
  const fieldErrors: Record<string, string[]> = {};
  let store: { id: number; gln: string } | undefined;
  if (body.store != null) {
    [store] = await db
      .select({ id: stores.id, gln: stores.gln })
      .from(stores)
      .where(eq(stores.gln, body.store));
    if (!store) fieldErrors.store = [`Object with gln=${body.store} does not exist.`];
  }
  // Only an organization the user is a member of can be used.
  const [organization] = await db
    .select({ id: organizations.id, organizationId: organizations.organizationId })
    .from(organizations)
    .innerJoin(memberships, eq(memberships.organizationId, organizations.id))
    .where(
      and(eq(organizations.organizationId, body.organization), eq(memberships.userId, user.id)),
    );
  if (!organization) {
    fieldErrors.organization = [`Object with organization_id=${body.organization} does not exist.`];
  }
  if (Object.keys(fieldErrors).length > 0) throw new Invalid(fieldErrors);
  const now = formatMicros(nowMicros);
  const [cart] = await db
    .insert(carts)
    .values({
      userId: user.id,
      organizationId: organization.id,
      storeId: store?.id ?? null,
      customerOrderNumber: body.customer_order_number,
      orderMark: body.order_mark,
      reference: body.reference === undefined ? user.reference : body.reference,
      created: now,
      lastActivity: now,
    })
    .returning();
  return {
    id: cart.id,
    created: formatDbTimestamp(cart.created) as string,
    customer_order_number: cart.customerOrderNumber,
    order_mark: cart.orderMark,
    organization: organization.organizationId,
    reference: cart.reference,
    store: store?.gln ?? null,
  };
}
