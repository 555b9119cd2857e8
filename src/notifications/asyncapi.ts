import type { TSchema } from 'typebox';
import { CheckoutRecordSchema } from '../carts/schemas.js';
import { ControlSchema } from '../controls/schemas.js';
import {
  GOING_AWAY_CLOSE,
  NOTIFICATION_TYPES,
  type NotificationType,
  SESSION_ENDED_CLOSE,
  TOO_MANY_CONNECTIONS,
} from './notifier.js';
import { NOTIFICATION_SCHEMAS } from './schemas.js';
import { TRY_AGAIN_LATER } from './socket.js';

/** Where the AsyncAPI document is served, beside the OpenAPI one (`/api/schema/`). */
export const ASYNCAPI_PATH = '/api/asyncapi/';

/** The close codes the server sends, and what a client does about each. */
export const CLOSE_CODES = [
  {
    code: GOING_AWAY_CLOSE,
    reason: 'Server shutting down',
    description: 'The instance stops (a deploy): reconnect with a new code.',
  },
  {
    code: TRY_AGAIN_LATER,
    reason: 'Too many connections, try again later',
    description:
      'The instance filled up while the connection was accepted: reconnect with a new code.',
  },
  {
    code: SESSION_ENDED_CLOSE,
    reason: 'Session ended',
    description:
      "The user's sessions ended (password changed or reset, logout-all, an administrator), " +
      'or the code was not valid: log in again, then reconnect with a new code.',
  },
  {
    code: TOO_MANY_CONNECTIONS,
    reason: 'Too many connections',
    description: 'The user opened more than WS_MAX_PER_USER sockets: this, the oldest, made way.',
  },
];

/** Each message: a name for generators, and who receives it. */
const MESSAGES: Record<NotificationType, { name: string; summary: string }> = {
  'cart.checked_out': {
    name: 'CartCheckedOut',
    summary:
      "A checkout placed its order. To the cart's owner and every staff user and admin " +
      '(not on a repeated checkout that answers the record).',
  },
  'cart.checkout_failed': {
    name: 'CartCheckoutFailed',
    summary:
      'A checkout failed upstream (401, 502, 503 or 504): the status and code it answered. ' +
      'To the cart’s owner only.',
  },
  'control.created': {
    name: 'ControlCreated',
    summary:
      'A control was created, by an administrator or a random draw (after the checkout ' +
      'that drew it). To the controlled user and every staff user and admin.',
  },
  'control.verified': {
    name: 'ControlVerified',
    summary:
      'A control moved from pending to verified (once). To the controlled user only; ' +
      '`data.control` is as `GET controls/{id}/` answers it.',
  },
};

/** Schemas shared with the OpenAPI document, named as there (src/api-components.ts). */
const SHARED = new Map<unknown, string>([
  [CheckoutRecordSchema, 'Checkout'],
  [ControlSchema, 'Control'],
]);

/**
 * A TypeBox schema as plain JSON Schema (the symbols TypeBox adds and the Ajv-only
 * `errorMessage` dropped), the shared schemas by `$ref`.
 */
function jsonSchema(schema: unknown, root = true): unknown {
  if (Array.isArray(schema)) return schema.map((entry) => jsonSchema(entry, false));
  if (!schema || typeof schema !== 'object') return schema;
  const name = SHARED.get(schema);
  if (!root && name) return { $ref: `#/components/schemas/${name}` };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key !== 'errorMessage') out[key] = jsonSchema(value, false);
  }
  return out;
}

/**
 * The AsyncAPI 3 document of the notification WebSocket: its address and the connection
 * code, every message type with its payload schema (the same TypeBox schemas the service
 * sends by), and the close codes. `base`: the service's address (PUBLIC_URL, else the listen
 * address), as for links.
 */
export function asyncApiDocument(base: string): Record<string, unknown> {
  const url = new URL(base);
  const pathname = url.pathname.replace(/\/$/, '');
  const messages = Object.fromEntries(
    NOTIFICATION_TYPES.map((type) => [
      MESSAGES[type].name,
      {
        name: type,
        title: type,
        summary: MESSAGES[type].summary,
        contentType: 'application/json',
        payload: { $ref: `#/components/schemas/${MESSAGES[type].name}` },
      },
    ]),
  );
  const schemas: Record<string, unknown> = {};
  for (const [schema, name] of SHARED) schemas[name] = jsonSchema(schema as TSchema);
  for (const type of NOTIFICATION_TYPES) {
    schemas[MESSAGES[type].name] = jsonSchema(NOTIFICATION_SCHEMAS[type]);
  }
  const closeCodes = CLOSE_CODES.map(
    ({ code, reason, description }) => `- **${code}** (${reason}): ${description}`,
  ).join('\n');
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Cart and store ordering service: notifications',
      version: '1.0.0',
      description:
        'Live events over one WebSocket per client. Get a single-use code with ' +
        '`POST /api/v1/websocket-notifications/groups/` (a bearer token; see the OpenAPI ' +
        'document at `/api/schema/`), then connect to `/ws/notifications/?code=<code>`. ' +
        'Messages are JSON text frames `{"type", "data", "created"}`; each reaches every open ' +
        'connection of its recipients, on whichever instance. Best effort: nothing is replayed ' +
        'to a client that was not connected.',
    },
    servers: {
      service: {
        host: url.host,
        protocol: url.protocol === 'https:' ? 'wss' : 'ws',
        ...(pathname && { pathname }),
        description: 'The service itself (PUBLIC_URL, else the address it listens on).',
        security: [{ $ref: '#/components/securitySchemes/connectionCode' }],
      },
    },
    defaultContentType: 'application/json',
    channels: {
      notifications: {
        address: '/ws/notifications/',
        title: 'Notifications of the signed-in user',
        description:
          'Refused before the upgrade: HTTP 401 (no, unknown, expired or spent code), 403 ' +
          '`origin_not_allowed` (a browser page of another site), 503 `too_many_connections` ' +
          'with `Retry-After` (the instance is full), 426 (no upgrade). The server pings every ' +
          '`WS_HEARTBEAT_SECONDS` (30 s) and drops a socket that did not answer the last ping. ' +
          `The server closes a socket with these codes:\n${closeCodes}`,
        messages,
        bindings: {
          ws: {
            method: 'GET',
            query: {
              type: 'object',
              required: ['code'],
              properties: {
                code: {
                  type: 'string',
                  description: 'The code of `POST websocket-notifications/groups/`, spent here',
                },
              },
            },
            bindingVersion: '0.1.0',
          },
        },
        'x-close-codes': CLOSE_CODES,
      },
    },
    operations: Object.fromEntries(
      NOTIFICATION_TYPES.map((type) => [
        `send${MESSAGES[type].name}`,
        {
          action: 'send',
          channel: { $ref: '#/channels/notifications' },
          summary: MESSAGES[type].summary,
          messages: [{ $ref: `#/channels/notifications/messages/${MESSAGES[type].name}` }],
        },
      ]),
    ),
    components: {
      schemas,
      securitySchemes: {
        connectionCode: {
          type: 'httpApiKey',
          in: 'query',
          name: 'code',
          description:
            'A single-use code of `POST /api/v1/websocket-notifications/groups/`, valid ' +
            '`WS_CODE_TTL_SECONDS` (300 s).',
        },
      },
    },
  };
}
