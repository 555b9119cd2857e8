import spectralCore from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../helpers/app.js';
import { organizationsOf } from '../helpers/fixtures.js';

/**
 * The OpenAPI document as the phone app's generators (Swift, Kotlin, TypeScript) need it:
 * a stable, unique operationId on every operation (their method names), every request and
 * response body a named component schema (their type names), and Spectral's `spectral:oas`
 * ruleset with no error, the generators' rules raised to errors so a regression fails here.
 */

// biome-ignore lint/suspicious/noExplicitAny: the document is read as JSON
type Document = any;

// The packages are CommonJS: their named exports come through the default one.
const { Spectral, Document: SpectralDocument } = spectralCore;
const { Json } = spectralParsers as unknown as {
  Json: ConstructorParameters<typeof SpectralDocument>[1];
};

/**
 * The operationIds, pinned: a generated client's method names. Changing one breaks every app
 * built on it, so a change here is a change of the interface.
 */
const OPERATION_IDS: Record<string, string> = {
  'get /users/restore-password/{code}/': 'showRestorePasswordPage',
  'post /users/restore-password/{code}/': 'submitRestorePasswordPage',
  'post /api/v1/auth/jwt/token/': 'createToken',
  'post /api/v1/auth/jwt/refresh/': 'refreshToken',
  'post /api/v1/carts/': 'createCart',
  'get /api/v1/carts/': 'listCarts',
  'get /api/v1/carts/stats/': 'getCartStats',
  'get /api/v1/carts/time-series/': 'getCartTimeSeries',
  'get /api/v1/carts/{id}/': 'getCart',
  'patch /api/v1/carts/{id}/checkout/': 'checkoutCart',
  'post /api/v1/items/': 'createItem',
  'get /api/v1/items/': 'listItems',
  'patch /api/v1/items/{id}/': 'updateItem',
  'delete /api/v1/items/{id}/': 'deleteItem',
  'post /api/v1/controls/': 'createControl',
  'get /api/v1/controls/': 'listControls',
  'patch /api/v1/controls/{id}/': 'verifyControl',
  'delete /api/v1/controls/{id}/': 'rejectControl',
  'get /api/v1/controls/stats/': 'getControlStats',
  'get /api/v1/controls/{id}/': 'getControl',
  'get /api/v1/shopping-lists/': 'listShoppingLists',
  'post /api/v1/shopping-lists/': 'createShoppingList',
  'get /api/v1/shopping-lists/{id}/': 'getShoppingList',
  'patch /api/v1/shopping-lists/{id}/': 'updateShoppingList',
  'delete /api/v1/shopping-lists/{id}/': 'deleteShoppingList',
  'get /api/v1/shopping-list-items/': 'listShoppingListItems',
  'post /api/v1/shopping-list-items/': 'createShoppingListItem',
  'get /api/v1/shopping-list-items/{id}/': 'getShoppingListItem',
  'patch /api/v1/shopping-list-items/{id}/': 'updateShoppingListItem',
  'delete /api/v1/shopping-list-items/{id}/': 'deleteShoppingListItem',
  'get /api/v1/organizations/': 'listOrganizations',
  'post /api/v1/organizations/{organization_id}/favorite/': 'favoriteOrganization',
  'post /api/v1/organizations/{organization_id}/unfavorite/': 'unfavoriteOrganization',
  'get /api/v1/credit-check/{organization_id}/': 'getCreditCheck',
  'get /api/v1/stores/': 'listStores',
  'get /api/v1/stores/{gln}/': 'getStore',
  'patch /api/v1/stores/{gln}/': 'updateStore',
  'get /api/v1/stores/{gln}/store-hours/': 'getStoreHours',
  'post /api/v1/stores/{gln}/store-hours/': 'setStoreHours',
  'get /api/v1/options/': 'listOptions',
  'get /api/v1/monthly-scores/': 'getMonthlyScores',
  'get /api/v1/monthly-scores/ranking/': 'getMonthlyScoreRanking',
  'get /api/v1/products/{article_number}/': 'getProduct',
  'get /api/v1/products/{article_number}/price/': 'getProductPrice',
  'get /api/v1/products/{article_number}/stock/': 'getProductStock',
  'get /api/v1/categories/': 'listCategories',
  'get /api/v1/users/me/': 'getCurrentUser',
  'patch /api/v1/users/me/change-password/': 'changePassword',
  'post /api/v1/users/me/logout-all/': 'logoutAll',
  'get /api/v1/users/me/shipments/': 'listShipments',
  'post /api/v1/request-restore-code/': 'requestRestoreCode',
  'post /api/v1/restore-password/': 'restorePassword',
  'post /api/v1/request_restore_code/': 'requestRestoreLink',
  'post /api/v1/restore_password/': 'restorePasswordWithLink',
  'post /api/v1/websocket-notifications/groups/': 'createNotificationCode',
  'get /api/v1/audit-events/': 'listAuditEvents',
};

/** Warnings of spectral:oas that this API answers as it is, on purpose. */
const ACCEPTED_WARNINGS = new Set([
  // The paths end in a slash: the contract's (docs/http-contract.md).
  'path-keys-no-trailing-slash',
  // No servers: the document is served by the service it describes, relative to it.
  'oas3-api-servers',
  // Contact and licence: the operator's, not the code's.
  'info-contact',
  'info-license',
  'license-url',
  // Descriptions where the summary and the schema say it all.
  'operation-description',
  'oas3-parameter-description',
]);

let ctx: TestContext;
let doc: Document;
const operations: { key: string; op: Document }[] = [];

beforeAll(async () => {
  ctx = await startTestApp();
  doc = (await ctx.request('GET', '/api/schema/')).body;
  for (const [path, methods] of Object.entries<Record<string, Document>>(doc.paths)) {
    for (const [method, op] of Object.entries(methods))
      operations.push({ key: `${method} ${path}`, op });
  }
});
afterAll(() => ctx?.close());

/** Every `$ref` of a value, recursively. */
function refsOf(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const entry of value) refsOf(entry, found);
  else if (value && typeof value === 'object') {
    for (const [key, entry] of Object.entries(value)) {
      if (key === '$ref' && typeof entry === 'string') found.push(entry);
      else refsOf(entry, found);
    }
  }
  return found;
}

describe('operationIds', () => {
  it('every operation has its pinned operationId, camelCase and unique', () => {
    const ids = Object.fromEntries(operations.map(({ key, op }) => [key, op.operationId]));
    expect(ids).toEqual(OPERATION_IDS);
    const values = Object.values(ids);
    expect(new Set(values).size).toBe(values.length);
    for (const id of values) expect(id).toMatch(/^[a-z][a-zA-Z]+$/);
  });
});

describe('component schemas', () => {
  it('names every JSON request and success body, nested schemas included', () => {
    const schemas = doc.components.schemas;
    for (const { key, op } of operations) {
      const bodies = [
        op.requestBody?.content?.['application/json']?.schema,
        ...Object.entries<Document>(op.responses)
          .filter(([status]) => status.startsWith('2'))
          .map(([, response]) => response.content?.['application/json']?.schema),
      ].filter(Boolean);
      for (const body of bodies) {
        expect(body, key).toEqual({ $ref: expect.stringMatching(/^#\/components\/schemas\/\w+$/) });
      }
    }
    for (const name of [
      'Cart',
      'CartItem',
      'CartPage',
      'Checkout',
      'Control',
      'ShoppingList',
      'ShoppingListItem',
      'Store',
      'Organization',
      'LoginResponse',
      'ErrorDetail',
      'FieldErrors',
      'CatalogueCategory',
    ]) {
      expect(schemas, name).toHaveProperty([name]);
    }
    // Nested named schemas are references, not copies.
    expect(schemas.Cart.properties.items.items).toEqual({ $ref: '#/components/schemas/CartItem' });
    expect(schemas.Cart.properties.checkout).toEqual({
      allOf: [{ $ref: '#/components/schemas/Checkout' }],
      nullable: true,
    });
    expect(schemas.CartPage.properties.results.items).toEqual({
      $ref: '#/components/schemas/Cart',
    });
    expect(schemas.ShoppingList.properties.items.items).toEqual({
      $ref: '#/components/schemas/ShoppingListItem',
    });
    // No generated names (@fastify/swagger's def-0 of a recursive schema).
    for (const name of Object.keys(schemas)) expect(name).toMatch(/^[A-Z][A-Za-z]+$/);
  });

  it('every reference resolves', () => {
    for (const ref of refsOf(doc)) {
      const name = ref.replace('#/components/schemas/', '');
      expect(doc.components.schemas, ref).toHaveProperty([name]);
    }
  });

  it('answers still validate as the schemas say (a named Cart is the cart)', async () => {
    const anna = await ctx.login('anna');
    const created = await ctx.request('POST', '/api/v1/carts/', {
      token: anna.token,
      body: {
        organization: (await organizationsOf(ctx, anna.userId))[0],
        customer_order_number: 'A-1',
        order_mark: 'm',
      },
    });
    expect(created.status).toBe(201);
    const cart = await ctx.request('GET', `/api/v1/carts/${created.body.id}/`, {
      token: anna.token,
    });
    expect(cart.status).toBe(200);
    expect(Object.keys(cart.body).sort()).toEqual(
      Object.keys(doc.components.schemas.Cart.properties).sort(),
    );
  });
});

describe('Spectral (spectral:oas)', () => {
  it('finds no error, and no warning of a kind not accepted above', async () => {
    const spectral = new Spectral();
    spectral.setRuleset({
      extends: [[oas as never, 'all']],
      // What generators need, raised to errors: a regression fails the suite.
      rules: {
        'operation-operationId': 'error',
        'operation-operationId-unique': 'error',
        'operation-operationId-valid-in-url': 'error',
        'operation-tag-defined': 'error',
        'oas3-unused-component': 'error',
        'duplicated-entry-in-enum': 'error',
      },
    });
    const results = await spectral.run(new SpectralDocument(JSON.stringify(doc, null, 2), Json));
    const shown = (r: (typeof results)[number]) => `${r.code} at ${r.path.join('.')}: ${r.message}`;
    expect(results.filter((r) => r.severity === 0).map(shown)).toEqual([]);
    expect(
      results.filter((r) => r.severity === 1 && !ACCEPTED_WARNINGS.has(String(r.code))).map(shown),
    ).toEqual([]);
  });
});
