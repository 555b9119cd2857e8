import type { Static } from 'typebox';
import type * as schemas from './schemas.js';

/**
 * The contract of docs/erp-contract.md: the shapes the service sends and reads. The ERP simulator
 * (erp-simulator/) implements the same types.
 */
export interface TokenPair {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

export interface UpstreamOrganization {
  organization_id: string;
  code: string;
  name: string;
  parent_code: string;
  /** Not in the contract; honoured when an upstream system sends it. */
  has_unlimited_credit?: boolean;
}

export interface UpstreamProfile {
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  telephone: string;
  reference: string | null;
  organizations: UpstreamOrganization[];
}

export interface OrderRequest {
  channel: 'store' | 'warehouse';
  store_gln: string | null;
  organization_id: string;
  customer_order_number: string;
  order_mark: string;
  reference: string | null;
  lines: { part_number: string; quantity: number }[];
}

export interface OrderAnswer {
  orderId: string;
  orderNumber: string;
  /** Upstream answered 202: saturated, accepted for later processing. */
  queued: boolean;
}

/** The answers the client checks against the schemas of ./schemas.ts before returning them. */
export type Product = Static<typeof schemas.ProductSchema>;
export type ProductPrice = Static<typeof schemas.ProductPriceSchema>;
export type ProductStock = Static<typeof schemas.ProductStockSchema>;
export type Category = Static<typeof schemas.CategorySchema>;
export type Shipment = Static<typeof schemas.ShipmentSchema>;
export type CreditAnswer = Static<typeof schemas.CreditAnswerSchema>;
