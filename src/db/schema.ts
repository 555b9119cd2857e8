import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  char,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  time,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';

/** Microsecond timestamps, read back as text so no precision is lost through JS Date. */
const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 6, mode: 'string' });

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull().unique(),
    email: text('email').notNull().default(''),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    telephone: text('telephone').notNull().default(''),
    reference: text('reference'),
    isStaff: boolean('is_staff').notNull().default(false),
    isAdmin: boolean('is_admin').notNull().default(false),
    created: ts('created').notNull(),
    lastLogin: ts('last_login'),
    /**
     * Bumped when the password changes or is reset (src/protections/sessions.ts): a token carries the
     * generation it was issued under and is refused once it differs.
     */
    sessionGeneration: integer('session_generation').notNull().default(0),
    /**
     * Set by `users erase` (src/admin/personal-data.ts): the row is a tombstone that no login
     * may match, whatever username the ERP answers (src/auth/users.ts).
     */
    erasedAt: ts('erased_at'),
  },
  // Staff hear every checkout and control (src/notifications/subscribers.ts): a few rows.
  (t) => [index('users_staff_idx').on(t.id).where(sql`${t.isStaff} or ${t.isAdmin}`)],
);

export const organizations = pgTable('organizations', {
  id: serial('id').primaryKey(),
  organizationId: text('organization_id').notNull().unique(),
  code: text('code').notNull().default(''),
  name: text('name').notNull().default(''),
  parentCode: text('parent_code').notNull().default(''),
  hasUnlimitedCredit: boolean('has_unlimited_credit').notNull().default(false),
  created: ts('created').notNull(),
});

export const memberships = pgTable(
  'memberships',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    favorite: boolean('favorite').notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.organizationId] }),
    index('memberships_organization_idx').on(t.organizationId),
  ],
);

export const stores = pgTable('stores', {
  id: serial('id').primaryKey(),
  gln: text('gln').notNull().unique(),
  name: text('name').notNull(),
  /** `active_period` in seconds (the contract writes it `HH:MM:SS`, hours may exceed 23). */
  activePeriodSeconds: integer('active_period_seconds').notNull().default(7200),
  cartsForRandomControl: integer('carts_for_random_control').notNull().default(0),
  created: ts('created').notNull(),
});

export const storeHours = pgTable(
  'store_hours',
  {
    storeId: integer('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    /** 0 = Monday … 6 = Sunday. */
    weekday: smallint('weekday').notNull(),
    openingTime: time('opening_time'),
    closingTime: time('closing_time'),
  },
  (t) => [primaryKey({ columns: [t.storeId, t.weekday] })],
);

export const carts = pgTable(
  'carts',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id),
    storeId: integer('store_id').references(() => stores.id),
    customerOrderNumber: text('customer_order_number').notNull().default(''),
    orderMark: text('order_mark').notNull().default(''),
    reference: text('reference'),
    created: ts('created').notNull(),
    lastActivity: ts('last_activity').notNull(),
    /** Kept by the items module in the same transaction as every item change. */
    itemsCount: integer('items_count').notNull().default(0),
    totalQuantity: integer('total_quantity').notNull().default(0),
    checkoutAvailabilityError: boolean('checkout_availability_error').notNull().default(false),
    checkoutAvailabilityErrorAt: ts('checkout_availability_error_at'),
    /**
     * The checkout attempt holding the claim (src/carts/checkout.ts): its token and when it
     * began. A crashed attempt leaves them, and the claim goes stale.
     */
    checkoutClaim: uuid('checkout_claim'),
    checkoutStartedAt: ts('checkout_started_at'),
    /**
     * The attempts that may have placed the order (in flight, or ended without knowing):
     * each attempt removes its own token once it knows it placed nothing; a record clears all.
     */
    checkoutUnsettled: uuid('checkout_unsettled').array().notNull().default(sql`'{}'::uuid[]`),
    /**
     * Kept equal to "checkout_unsettled is not empty" by every statement that writes either:
     * items are frozen so a retry sends the same body under the same idempotency key.
     */
    checkoutFrozen: boolean('checkout_frozen').notNull().default(false),
    checkedOut: boolean('checked_out').notNull().default(false),
    /**
     * Set (with `checked_out`) when the ERP answered that it placed the order (201 or 202)
     * but its answer cannot be stored: the order exists, its number is not known here. A
     * checkout asks again under the same key; a record clears it (decision 0001).
     */
    checkoutUnconfirmedAt: ts('checkout_unconfirmed_at'),
  },
  // Only indexes a query uses: an item add changes items_count, total_quantity and
  // last_activity, and with none of them indexed its cart update is a HOT update.
  (t) => [
    index('carts_user_created_idx').on(t.userId, t.created),
    index('carts_created_idx').on(t.created),
    // A store's page in its order (created, then id) read straight from the index: with
    // (store_id, created) alone the planner scanned every store's carts by date, filtering,
    // a cost that grows with the other stores' carts and the store's quiet days (issue 19).
    index('carts_store_created_id_idx').on(t.storeId, t.created, t.id),
    index('carts_organization_idx').on(t.organizationId),
    index('carts_customer_order_number_idx').on(t.customerOrderNumber),
    // The carts whose placed order awaits its number (a few, if any): `admin checkouts`.
    index('carts_unconfirmed_idx').on(t.id).where(sql`${t.checkoutUnconfirmedAt} is not null`),
  ],
);

/**
 * Per store (null: the customer warehouse), UTC day of creation and the two flags staff
 * filter on: how many carts, and the sums of their lines and quantities. Kept by a trigger
 * on `carts` in the same transaction as every change (drizzle/0001_cart_rollups.sql);
 * src/carts/rollups.ts reads it.
 */
export const cartRollups = pgTable(
  'cart_rollups',
  {
    storeId: integer('store_id'),
    day: date('day', { mode: 'string' }).notNull(),
    checkedOut: boolean('checked_out').notNull(),
    checkoutAvailabilityError: boolean('checkout_availability_error').notNull(),
    carts: integer('carts').notNull(),
    itemsCount: bigint('items_count', { mode: 'number' }).notNull(),
    totalQuantity: bigint('total_quantity', { mode: 'number' }).notNull(),
  },
  (t) => [
    unique('cart_rollups_key')
      .on(t.storeId, t.day, t.checkedOut, t.checkoutAvailabilityError)
      .nullsNotDistinct(),
  ],
);

/**
 * The cart counts of `cart_rollups` again, in a table of their own: item adds change the sums
 * there, never a count here, so these pages stay all-visible and a store's carts per day are
 * an index-only scan. Kept by the same trigger (drizzle/0004_cart_counts.sql).
 */
export const cartCounts = pgTable(
  'cart_counts',
  {
    storeId: integer('store_id'),
    day: date('day', { mode: 'string' }).notNull(),
    checkedOut: boolean('checked_out').notNull(),
    checkoutAvailabilityError: boolean('checkout_availability_error').notNull(),
    carts: integer('carts').notNull(),
  },
  (t) => [
    unique('cart_counts_key')
      .on(t.storeId, t.day, t.checkedOut, t.checkoutAvailabilityError)
      .nullsNotDistinct(),
    // `carts` in the key too (drizzle has no INCLUDE): what index-only scans read.
    index('cart_counts_read_idx').on(
      t.storeId,
      t.day,
      t.checkedOut,
      t.checkoutAvailabilityError,
      t.carts,
    ),
  ],
);

/**
 * Coarser grains of the same figures, per store: `grain` 'M' (a UTC month, `period` its
 * first day) and 'T' (all time, `period` -infinity), with the two flags. Kept by the same
 * trigger (drizzle/0006_rollup_grains.sql); a store's figures over months or all its history
 * read these instead of one row per day (decision 0010).
 */
export const cartGrains = pgTable(
  'cart_grains',
  {
    storeId: integer('store_id'),
    grain: char('grain', { length: 1 }).notNull(),
    period: date('period', { mode: 'string' }).notNull(),
    checkedOut: boolean('checked_out').notNull(),
    checkoutAvailabilityError: boolean('checkout_availability_error').notNull(),
    carts: bigint('carts', { mode: 'number' }).notNull(),
    itemsCount: bigint('items_count', { mode: 'number' }).notNull(),
    totalQuantity: bigint('total_quantity', { mode: 'number' }).notNull(),
  },
  (t) => [
    unique('cart_grains_key')
      .on(t.storeId, t.grain, t.period, t.checkedOut, t.checkoutAvailabilityError)
      .nullsNotDistinct(),
  ],
);

/**
 * The figures over all stores: `grain` 'D' (a UTC day), 'M' and 'T', with the flags and
 * whether the carts are the warehouse's (no store). A change of the current day or month,
 * or of all time, counts in the row of its cart's `shard` (the cart id modulo 32), so that
 * writers in different stores rarely wait on one row; closed days and months are gathered
 * into shard 0 (cart_grains_fold); readers sum the shards (decision 0010).
 */
export const cartGrainsAll = pgTable(
  'cart_grains_all',
  {
    grain: char('grain', { length: 1 }).notNull(),
    period: date('period', { mode: 'string' }).notNull(),
    shard: smallint('shard').notNull(),
    warehouse: boolean('warehouse').notNull(),
    checkedOut: boolean('checked_out').notNull(),
    checkoutAvailabilityError: boolean('checkout_availability_error').notNull(),
    carts: bigint('carts', { mode: 'number' }).notNull(),
    itemsCount: bigint('items_count', { mode: 'number' }).notNull(),
    totalQuantity: bigint('total_quantity', { mode: 'number' }).notNull(),
  },
  (t) => [
    unique('cart_grains_all_key').on(
      t.grain,
      t.period,
      t.warehouse,
      t.checkedOut,
      t.checkoutAvailabilityError,
      t.shard,
    ),
    // The rows cart_grains_fold() has yet to gather: found without reading the others.
    index('cart_grains_all_unfolded_idx').on(t.grain, t.period).where(sql`${t.shard} <> 0`),
  ],
);

/**
 * Every cart of a UTC day over all stores and flags: the daily series over all carts reads
 * one row per day here instead of one per day and combination of flags (issue 19: ten years
 * of days). Sharded and folded as `cart_grains_all` (decision 0010); a checkout moves a cart
 * between flags, not days, so it does not write here.
 */
export const cartDays = pgTable(
  'cart_days',
  {
    day: date('day', { mode: 'string' }).notNull(),
    shard: smallint('shard').notNull(),
    carts: bigint('carts', { mode: 'number' }).notNull(),
    itemsCount: bigint('items_count', { mode: 'number' }).notNull(),
    totalQuantity: bigint('total_quantity', { mode: 'number' }).notNull(),
  },
  (t) => [
    unique('cart_days_key').on(t.day, t.shard),
    index('cart_days_unfolded_idx').on(t.day).where(sql`${t.shard} <> 0`),
  ],
);

/**
 * Every cart of a UTC hour over all stores and flags: a count, stats or series between two
 * instants reads the whole hours at its edges here and only the partial first and last
 * hours from `carts` (issue 19: at 10M carts a day holds ~14,000 carts, an hour ~600).
 * Sharded while its day is current and folded with the others (decision 0010).
 */
export const cartHours = pgTable(
  'cart_hours',
  {
    hour: timestamp('hour', { mode: 'string' }).notNull(),
    shard: smallint('shard').notNull(),
    carts: bigint('carts', { mode: 'number' }).notNull(),
    itemsCount: bigint('items_count', { mode: 'number' }).notNull(),
    totalQuantity: bigint('total_quantity', { mode: 'number' }).notNull(),
  },
  (t) => [
    unique('cart_hours_key').on(t.hour, t.shard),
    index('cart_hours_unfolded_idx').on(t.hour).where(sql`${t.shard} <> 0`),
  ],
);

export const items = pgTable(
  'items',
  {
    id: serial('id').primaryKey(),
    cartId: integer('cart_id')
      .notNull()
      .references(() => carts.id, { onDelete: 'cascade' }),
    partNumber: varchar('part_number', { length: 64 }).notNull(),
    quantity: integer('quantity').notNull(),
    created: ts('created').notNull(),
  },
  (t) => [
    uniqueIndex('items_cart_part_number_idx').on(t.cartId, t.partNumber),
    check('items_quantity_range', sql`${t.quantity} between 1 and 1000000`),
  ],
);

export const checkouts = pgTable('checkouts', {
  id: serial('id').primaryKey(),
  cartId: integer('cart_id')
    .notNull()
    .unique()
    .references(() => carts.id, { onDelete: 'cascade' }),
  created: ts('created').notNull(),
  orderId: text('order_id').notNull(),
  orderNumber: text('order_number').notNull(),
  timedOut: boolean('timed_out').notNull().default(false),
  /** The claim token of the checkout attempt that stored the record (migration 0024). */
  attempt: uuid('attempt'),
});

export const controls = pgTable(
  'controls',
  {
    id: serial('id').primaryKey(),
    created: ts('created').notNull(),
    verifiedAt: ts('verified_at'),
    isRandom: boolean('is_random').notNull().default(false),
    status: text('status', { enum: ['pending', 'verified'] }).notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    storeId: integer('store_id')
      .notNull()
      .references(() => stores.id),
    controllerId: integer('controller_id').references(() => users.id),
  },
  (t) => [
    index('controls_user_idx').on(t.userId),
    index('controls_store_idx').on(t.storeId),
    index('controls_status_idx').on(t.status),
    index('controls_created_idx').on(t.created),
  ],
);

export const controlCarts = pgTable(
  'control_carts',
  {
    controlId: integer('control_id')
      .notNull()
      .references(() => controls.id, { onDelete: 'cascade' }),
    cartId: integer('cart_id')
      .notNull()
      .references(() => carts.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.controlId, t.cartId] }),
    index('control_carts_cart_idx').on(t.cartId),
  ],
);

/**
 * One row per control ever created, kept when it is rejected (the control row goes), removed
 * by retention or its user erased: store, creation instant, kind and outcome, no person.
 * Kept by the trigger on `controls` (insert, verify) and by the rejection; the partial first
 * and last days of the control figures read it (drizzle/0020_control_days.sql).
 */
export const controlOutcomes = pgTable(
  'control_outcomes',
  {
    controlId: integer('control_id').primaryKey(),
    storeId: integer('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    created: ts('created').notNull(),
    isRandom: boolean('is_random').notNull(),
    outcome: text('outcome', { enum: ['pending', 'verified', 'rejected'] }).notNull(),
  },
  (t) => [
    index('control_outcomes_created_idx').on(t.created),
    index('control_outcomes_store_idx').on(t.storeId, t.created),
    check('control_outcomes_outcome', sql`${t.outcome} in ('pending', 'verified', 'rejected')`),
  ],
);

/**
 * Controls per store, UTC day of creation and kind: created, verified, rejected (pending is
 * the rest). Kept by the trigger on `control_outcomes`; the whole days of the control figures.
 */
export const controlDays = pgTable(
  'control_days',
  {
    storeId: integer('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    isRandom: boolean('is_random').notNull(),
    created: integer('created').notNull(),
    verified: integer('verified').notNull(),
    rejected: integer('rejected').notNull(),
  },
  (t) => [
    primaryKey({ name: 'control_days_pkey', columns: [t.storeId, t.day, t.isRandom] }),
    index('control_days_day_idx').on(t.day),
  ],
);

/** One row per user, store and UTC day already drawn under the `users` criterion. */
export const randomControlDraws = pgTable(
  'random_control_draws',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    storeId: integer('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.storeId, t.day] })],
);

export const shoppingLists = pgTable(
  'shopping_lists',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    cartId: integer('cart_id').references(() => carts.id, { onDelete: 'set null' }),
    created: ts('created').notNull(),
  },
  (t) => [
    index('shopping_lists_user_created_idx').on(t.userId, t.created),
    // Deleting a cart (retention, src/retention/) sets cart_id null here: found by index.
    index('shopping_lists_cart_idx').on(t.cartId),
  ],
);

export const shoppingListItems = pgTable(
  'shopping_list_items',
  {
    id: serial('id').primaryKey(),
    shoppingListId: integer('shopping_list_id')
      .notNull()
      .references(() => shoppingLists.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    quantity: integer('quantity').notNull(),
    scanned: boolean('scanned').notNull().default(false),
    created: ts('created').notNull(),
  },
  (t) => [index('shopping_list_items_list_created_idx').on(t.shoppingListId, t.created)],
);

export const options = pgTable('options', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  publicName: text('public_name').notNull().default(''),
  type: integer('type').notNull().default(0),
  value: text('value').notNull().default(''),
  file: text('file'),
  isList: boolean('is_list').notNull().default(false),
  isPublic: boolean('is_public').notNull().default(false),
});

/**
 * One row per account and variant: a new request replaces the code in place (the unique key
 * makes two concurrent requests leave one live code). The row outlives its code, holding the
 * account's budget of the current 24-hour window (codes issued, attempts made).
 */
export const restoreCodes = pgTable(
  'restore_codes',
  {
    id: serial('id').primaryKey(),
    /** Upstream's spelling: the password is set upstream under this name. */
    username: text('username').notNull(),
    /** The username trimmed and lower-cased: what a client types, matched whatever its case. */
    account: text('account').notNull(),
    variant: text('variant', { enum: ['code', 'link'] }).notNull(),
    codeHash: text('code_hash').notNull(),
    created: ts('created').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    /** Attempts at this code; it dies at RESTORE_CODE_MAX_ATTEMPTS. */
    attempts: integer('attempts').notNull().default(0),
    windowStart: ts('window_start').notNull(),
    windowCodes: integer('window_codes').notNull().default(0),
    windowAttempts: integer('window_attempts').notNull().default(0),
  },
  (t) => [
    uniqueIndex('restore_codes_hash_idx').on(t.codeHash),
    uniqueIndex('restore_codes_account_variant_idx').on(t.account, t.variant),
    index('restore_codes_username_idx').on(t.username),
  ],
);

/**
 * Failed logins of the current 24-hour window, per account (`scope` '') and per account and
 * client address (`scope` the address, IPv6 by its /64): the daily bounds of password
 * guessing (src/protections/failures.ts), shared by every instance. A row past its window is
 * started afresh by the next failure, and removed by retention.
 */
export const loginFailures = pgTable(
  'login_failures',
  {
    /** The username trimmed and lower-cased, as the restore budgets key it. */
    account: text('account').notNull(),
    scope: text('scope').notNull(),
    windowStart: ts('window_start').notNull(),
    failures: integer('failures').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.account, t.scope] }),
    index('login_failures_window_idx').on(t.windowStart),
  ],
);

export const wsCodes = pgTable(
  'ws_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: ts('expires_at').notNull(),
    /** The generation of the session that asked for the code: the socket belongs to it. */
    sessionGeneration: integer('session_generation').notNull().default(0),
  },
  (t) => [index('ws_codes_expires_idx').on(t.expiresAt)],
);

/**
 * Answers of writes sent with an `Idempotency-Key` (src/idempotency/): the key is the
 * user's; the row is written in the transaction of the write it answers, so it exists only
 * when the write committed. Rows older than 24 hours are ignored and purged.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: varchar('key', { length: 255 }).notNull(),
    /** `POST /api/v1/items/`: the operation the key was first used for. */
    operation: text('operation').notNull(),
    /** SHA-256 of the operation and the canonical request (params and body). */
    fingerprint: text('fingerprint').notNull(),
    /** The answer's status and what the route sends from (null only inside the write's transaction). */
    status: smallint('status'),
    answer: jsonb('answer'),
    created: ts('created').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.key] }),
    index('idempotency_keys_created_idx').on(t.created),
  ],
);

/**
 * Who did what: every staff action (controls created, verified, rejected; store settings and
 * hours changed; roles and stores changed by the admin command), with the values before and
 * after, written in the transaction of the change. Append-only: a trigger refuses updates, and
 * deletes outside retention (drizzle/0005_audit_events.sql).
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    created: ts('created').notNull(),
    /** `control.created`, `control.verified`, … (src/audit/schemas.ts). */
    kind: text('kind').notNull(),
    /** How it came: `api` (a person's token), `random-draw` (a checkout), `admin-command`. */
    via: text('via').notNull(),
    /** The person whose token made the change; null for a random draw or the admin command. */
    actorId: integer('actor_id').references(() => users.id),
    /** The operating-system user who ran the admin command. */
    operator: text('operator'),
    storeId: integer('store_id').references(() => stores.id),
    /** The customer concerned: the controlled user, the user given a role. */
    userId: integer('user_id').references(() => users.id),
    /** The control an event is about (it may no longer exist: rejected). */
    objectId: integer('object_id'),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (t) => [
    index('audit_events_created_idx').on(t.created, t.id),
    index('audit_events_store_idx').on(t.storeId, t.created),
    index('audit_events_actor_idx').on(t.actorId, t.created),
    index('audit_events_user_idx').on(t.userId),
  ],
);
