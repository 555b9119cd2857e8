import type { TSchema } from 'typebox';
import { AuditEventSchema } from './audit/schemas.js';
import {
  LoginAnswerSchema,
  LoginBodySchema,
  RefreshAnswerSchema,
  RefreshBodySchema,
} from './auth/schemas.js';
import {
  CartCreateBodySchema,
  CartCreatedSchema,
  CartListedSchema,
  CartStatsSchema,
  CheckoutRecordSchema,
  TimeSeriesSchema,
} from './carts/schemas.js';
import {
  ControlCountsSchema,
  ControlCreateBodySchema,
  ControlSchema,
  ControlStatsSchema,
  ControlStoreStatsSchema,
  ControlUpdateBodySchema,
  ControlUpdatedSchema,
} from './controls/schemas.js';
import { CartItemSchema, ItemCreateBodySchema, ItemUpdateBodySchema } from './items/schemas.js';
import { CodeAnswerSchema } from './notifications/schemas.js';
import { OptionSchema } from './options/schemas.js';
import { CreditAnswerSchema, OrganizationSchema } from './organizations/schemas.js';
import { MonthlyScoresSchema, RankingSchema } from './scores/schemas.js';
import {
  ShoppingListCreateBodySchema,
  ShoppingListItemCreateBodySchema,
  ShoppingListItemSchema,
  ShoppingListItemUpdateBodySchema,
  ShoppingListSchema,
  ShoppingListUpdateBodySchema,
} from './shopping-lists/schemas.js';
import {
  StoreHoursBodySchema,
  StoreHoursSchema,
  StoreSchema,
  StoreUpdateBodySchema,
} from './stores/schemas.js';
import {
  CategoryTreesSchema,
  ProductPriceSchema,
  ProductSchema,
  ProductStockSchema,
  ShipmentsSchema,
} from './upstream/schemas.js';
import {
  ChangePasswordAnswerSchema,
  ChangePasswordBodySchema,
  LogoutAllBodySchema,
  MeSchema,
  RequestCodeBodySchema,
  RequestLinkBodySchema,
  RestoreCodeBodySchema,
  RestoreLinkBodySchema,
} from './users/schemas.js';

/**
 * The names of the API's schemas in the OpenAPI document (`components.schemas`), in one
 * place: the types phone-app generators (Swift, Kotlin, TypeScript) name after them, so a
 * name is part of the interface and never changes. Each schema gets its name as its JSON
 * Schema `title`, an annotation that validation and serialization ignore;
 * src/http/openapi.ts moves every titled schema of the document into `components.schemas`,
 * wherever it is nested (a `Cart`'s `items` are `CartItem`s), and names the rest after
 * their operation. A paged list's answer is `<item>Page` (src/http/pagination.ts).
 */
export const API_COMPONENTS: Record<string, TSchema> = {
  AuditEvent: AuditEventSchema,
  Cart: CartListedSchema,
  CartCreate: CartCreateBodySchema,
  CartCreated: CartCreatedSchema,
  CartItem: CartItemSchema,
  CartItemCreate: ItemCreateBodySchema,
  CartItemUpdate: ItemUpdateBodySchema,
  CartStats: CartStatsSchema,
  CartTimeSeries: TimeSeriesSchema,
  CategoryTrees: CategoryTreesSchema,
  Checkout: CheckoutRecordSchema,
  Control: ControlSchema,
  ControlCounts: ControlCountsSchema,
  ControlCreate: ControlCreateBodySchema,
  ControlStats: ControlStatsSchema,
  ControlStoreStats: ControlStoreStatsSchema,
  ControlVerification: ControlUpdateBodySchema,
  CreditCheck: CreditAnswerSchema,
  CurrentUser: MeSchema,
  LoginRequest: LoginBodySchema,
  LoginResponse: LoginAnswerSchema,
  LogoutAll: LogoutAllBodySchema,
  Message: ChangePasswordAnswerSchema,
  MonthlyScoreRanking: RankingSchema,
  MonthlyScores: MonthlyScoresSchema,
  NotificationCode: CodeAnswerSchema,
  Option: OptionSchema,
  Organization: OrganizationSchema,
  PasswordChange: ChangePasswordBodySchema,
  PasswordRestoreWithCode: RestoreCodeBodySchema,
  PasswordRestoreWithLink: RestoreLinkBodySchema,
  Product: ProductSchema,
  ProductPrice: ProductPriceSchema,
  ProductStock: ProductStockSchema,
  RefreshRequest: RefreshBodySchema,
  RefreshResponse: RefreshAnswerSchema,
  RestoreCodeRequest: RequestCodeBodySchema,
  RestoreLinkRequest: RequestLinkBodySchema,
  Shipments: ShipmentsSchema,
  ShoppingList: ShoppingListSchema,
  ShoppingListCreate: ShoppingListCreateBodySchema,
  ShoppingListItem: ShoppingListItemSchema,
  ShoppingListItemCreate: ShoppingListItemCreateBodySchema,
  ShoppingListItemUpdate: ShoppingListItemUpdateBodySchema,
  ShoppingListUpdate: ShoppingListUpdateBodySchema,
  Store: StoreSchema,
  StoreHours: StoreHoursSchema,
  StoreHoursUpdate: StoreHoursBodySchema,
  StoreUpdate: StoreUpdateBodySchema,
  VerifiedControl: ControlUpdatedSchema,
};

// Named as the module loads, before any route is declared with these schemas.
for (const [name, schema] of Object.entries(API_COMPONENTS)) {
  const titled = schema as { title?: string };
  if (titled.title !== undefined && titled.title !== name) {
    throw new Error(`API_COMPONENTS: ${name} is already titled ${titled.title}`);
  }
  titled.title = name;
}
