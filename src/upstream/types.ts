/** Shapes of upstream-erp.md, as the service reads them. */
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

export type Product = Record<string, unknown>;
export type ProductPrice = Record<string, unknown>;
export type ProductStock = Record<string, unknown>;
export type Category = Record<string, unknown>;
export type Shipment = Record<string, unknown>;
export interface CreditAnswer {
  credit: boolean;
}
