import { formatDbTimestamp } from '../clock.js';
import type { items } from '../db/schema.js';
import type { CartItem } from './schemas.js';

/** A line in the form of the API (the item answers, and a cart's `items`). */
export function itemRecord(row: typeof items.$inferSelect): CartItem {
  return {
    id: row.id,
    cart: row.cartId,
    part_number: row.partNumber,
    quantity: row.quantity,
    created: formatDbTimestamp(row.created) as string,
  };
}
