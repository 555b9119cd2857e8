import type { FastifyInstance, RouteOptions } from 'fastify';
import { type AuthLevel, authLevelOf } from './auth.js';
import { DATABASE_RETRY_AFTER_SECONDS } from './errors.js';
import { ErrorDetailSchema, FieldErrorsSchema, UpstreamAnswerSchema } from './schemas.js';

/**
 * The OpenAPI document's error answers and security, derived for every operation from its
 * route's own facts (collected by one onRoute hook), so no route can forget them:
 * - 400 (field map) everywhere: every query and body value is checked;
 * - 401 on routes that need a token, 403 on staff and admin routes;
 * - 404 with path parameters or a page (`page` query);
 * - 409 with `config.conflicts`; 413 and 415 on methods with a body;
 * - 422 `idempotency_key_reused` where the route takes an `Idempotency-Key` header;
 * - 429 on routes with a rate-limit hook (src/protections/throttle.ts);
 * - 502/503/504 with `config.upstream`; 503 `database_unavailable` everywhere.
 * Only the document changes: the routes' response schemas (and so their serialization) stay
 * as declared.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route calls the upstream system: with the caller's `Authorization-Upstream` token
     * (`required-token`), with it when sent and else the service account (`optional-token`),
     * or without it (`no-token`: the service account or the caller's credentials).
     */
    upstream?: 'required-token' | 'optional-token' | 'no-token';
    /** 409 `checkout_in_progress`: the route changes or checks out a cart being checked out. */
    conflicts?: boolean;
    /** 503 `restore_unavailable`: the route sends mail, which production without SMTP_URL cannot. */
    mails?: boolean;
  }
}

interface RouteFacts {
  auth: AuthLevel;
  upstream?: 'required-token' | 'optional-token' | 'no-token';
  conflicts: boolean;
  mails: boolean;
  passUpstream503: boolean;
  hasBody: boolean;
  hasPathParams: boolean;
  paged: boolean;
  throttled: boolean;
  idempotent: boolean;
  html: boolean;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** `/carts/:id/` as OpenAPI writes it: `/carts/{id}/`. */
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

export type RouteFactIndex = Map<string, RouteFacts>;

/**
 * Collects each route's facts as it is added; `isThrottle` tells a rate-limit hook. Install
 * before the routes are registered.
 */
export function collectRouteFacts(
  app: FastifyInstance,
  isThrottle: (hook: unknown) => boolean,
): RouteFactIndex {
  const index: RouteFactIndex = new Map();
  app.addHook('onRoute', (route: RouteOptions) => {
    const config = (route.config ?? {}) as RouteOptions['config'] & Record<string, unknown>;
    const schema = (route.schema ?? {}) as {
      querystring?: { properties?: Record<string, unknown> };
      headers?: { properties?: Record<string, unknown> };
      produces?: string[];
    };
    const hooks = [route.preValidation ?? []].flat();
    const methods = [route.method].flat();
    for (const method of methods) {
      index.set(`${method.toLowerCase()} ${openApiPath(route.url)}`, {
        auth: authLevelOf(config?.auth, route.url),
        upstream: config?.upstream,
        conflicts: config?.conflicts === true,
        mails: config?.mails === true,
        passUpstream503: config?.passUpstream503 === true,
        hasBody: BODY_METHODS.has(method),
        hasPathParams: route.url.includes(':'),
        paged: schema.querystring?.properties?.page !== undefined,
        throttled: hooks.some(isThrottle),
        idempotent: schema.headers?.properties?.['idempotency-key'] !== undefined,
        html: schema.produces?.includes('text/html') ?? false,
      });
    }
  });
  return index;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const DETAIL = ref('ErrorDetail');

const header = (description: string) => ({ description, schema: { type: 'string' } });

interface ResponseObject {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema: unknown }>;
}

/** The error answers of one operation, by status code. */
function errorResponses(facts: RouteFacts): Record<string, ResponseObject> {
  const answers: Record<
    string,
    { description: string; schema: unknown; headers?: Record<string, unknown> }
  > = {};
  const usesToken = facts.auth !== 'public';
  const upstreamToken = facts.upstream === 'required-token' || facts.upstream === 'optional-token';

  answers[400] = {
    description:
      'Validation failed: `{"<field>": ["message"]}`, `non_field_errors` for the rest' +
      (facts.upstream === 'required-token'
        ? '; or `{"detail", "code": "upstream_token_missing"}` without `Authorization-Upstream`.'
        : '.'),
    schema:
      facts.upstream === 'required-token'
        ? { anyOf: [ref('FieldErrors'), DETAIL] }
        : ref('FieldErrors'),
  };
  if (usesToken || upstreamToken) {
    const codes = [
      ...(usesToken ? ['`not_authenticated`', '`token_not_valid`'] : []),
      ...(upstreamToken
        ? ['`upstream_token_not_valid` (upstream refused the upstream token)']
        : []),
    ];
    answers[401] = {
      description: `Not authenticated: ${codes.join(', ')}.`,
      schema: DETAIL,
      headers: usesToken ? { 'WWW-Authenticate': header('`Bearer realm="api"`') } : undefined,
    };
  }
  if (facts.auth === 'staff' || facts.auth === 'admin') {
    answers[403] = {
      description: `\`permission_denied\`: the route is for ${facts.auth === 'staff' ? 'staff and admins' : 'admins'}.`,
      schema: DETAIL,
    };
  }
  if (facts.hasPathParams || facts.paged) {
    answers[404] = {
      description: [
        facts.hasPathParams ? 'No such object (or not visible to the caller)' : '',
        facts.paged ? '`Invalid page.`' : '',
      ]
        .filter(Boolean)
        .join('; ')
        .concat(': `not_found`.'),
      schema: DETAIL,
    };
  }
  if (facts.conflicts) {
    answers[409] = {
      description:
        '`checkout_in_progress`: a checkout of the cart is in flight, or its outcome is unknown (retry).',
      schema: DETAIL,
    };
  }
  if (facts.idempotent) {
    answers[422] = {
      description: '`idempotency_key_reused`: the `Idempotency-Key` was used with another request.',
      schema: DETAIL,
    };
  }
  if (facts.hasBody) {
    answers[413] = { description: '`payload_too_large`: over 1 MiB.', schema: DETAIL };
    answers[415] = {
      description: '`unsupported_media_type`: the body is not JSON.',
      schema: DETAIL,
    };
  }
  if (facts.throttled) {
    answers[429] = {
      description: '`throttled`: too many attempts this minute.',
      schema: DETAIL,
      headers: { 'Retry-After': header('Seconds until the next attempt is counted.') },
    };
  }
  if (facts.upstream) {
    answers[502] = {
      description: '`upstream_error`: the upstream system answered unusably.',
      schema: DETAIL,
    };
  }
  answers[503] = {
    description:
      '`database_unavailable` (with `Retry-After`)' +
      (facts.upstream ? ', or `upstream_unavailable`' : '') +
      (facts.mails ? ', or `restore_unavailable` (production without `SMTP_URL`)' : '') +
      (facts.passUpstream503 ? ", or the upstream system's own 503 JSON, passed through" : '') +
      '.',
    schema: facts.passUpstream503 ? { anyOf: [DETAIL, ref('UpstreamAnswer')] } : DETAIL,
    headers: {
      'Retry-After': header(`Seconds to wait (${DATABASE_RETRY_AFTER_SECONDS} for the database).`),
    },
  };
  if (facts.upstream) {
    answers[504] = {
      description: '`upstream_timeout`: the upstream system did not answer in time.',
      schema: DETAIL,
    };
  }
  const responses: Record<string, ResponseObject> = {};
  for (const [status, { description, schema, headers }] of Object.entries(answers)) {
    responses[status] = {
      description: facts.html
        ? `An HTML page (JSON for a path the router refuses). ${description}`
        : description,
      ...(headers && { headers }),
      content: {
        ...(facts.html && { 'text/html': { schema: { type: 'string' } } }),
        'application/json': { schema },
      },
    };
  }
  return responses;
}

/** Per operation: a token or none, and `Authorization-Upstream` where it is used. */
function security(facts: RouteFacts): Record<string, string[]>[] {
  if (facts.auth === 'public') return [];
  if (facts.upstream === 'required-token') return [{ bearer: [], upstream: [] }];
  if (facts.upstream === 'optional-token') return [{ bearer: [] }, { bearer: [], upstream: [] }];
  return [{ bearer: [] }];
}

/** The security schemes the operations name. */
export const SECURITY_SCHEMES = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'The JWT of `POST /api/v1/auth/jwt/token/`: `Authorization: Bearer <token>`; ' +
      '`Authorization: JWT <token>` is accepted too (older clients).',
  },
  upstream: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization-Upstream',
    description:
      "The upstream system's token (`upstream_token` of the login answer): " +
      '`Bearer <upstream_token>`, or the bare token.',
  },
} as const;

/** The operations' tags, described, in alphabetical order (generators make a client class of each). */
export const API_TAGS = [
  { name: 'audit', description: 'The trail of staff actions' },
  { name: 'auth', description: 'Log in and refresh the access token' },
  { name: 'carts', description: 'Carts, their statistics and the checkout' },
  { name: 'catalogue', description: 'Products, prices, stock and categories (live from the ERP)' },
  { name: 'controls', description: 'Controls of carts at the exit, random or chosen' },
  { name: 'items', description: 'The lines of carts' },
  {
    name: 'notifications',
    description: 'The notification WebSocket (described by the AsyncAPI document `/api/asyncapi/`)',
  },
  { name: 'options', description: 'Public configuration options' },
  { name: 'organizations', description: 'Organizations, favourites and credit' },
  { name: 'ranking', description: 'Monthly scores and the ranking' },
  { name: 'shopping lists', description: "The user's shopping lists and their items" },
  { name: 'stores', description: 'Stores and their opening hours' },
  { name: 'users', description: 'The caller, passwords and their restore' },
];

/**
 * JSON Schema keywords OpenAPI 3.0 does not know: `errorMessage` (an Ajv keyword) is dropped,
 * a list of `examples` becomes one `example`.
 */
function toOpenApi30(value: unknown): void {
  if (Array.isArray(value)) {
    for (const entry of value) toOpenApi30(entry);
    return;
  }
  if (!value || typeof value !== 'object') return;
  const object = value as Record<string, unknown>;
  delete object.errorMessage;
  if (Array.isArray(object.examples) && (object.type !== undefined || object.$ref === undefined)) {
    if (object.example === undefined && object.examples.length > 0) {
      object.example = object.examples[0];
    }
    delete object.examples;
  }
  for (const entry of Object.values(object)) toOpenApi30(entry);
}

interface Document {
  paths?: Record<
    string,
    Record<
      string,
      {
        responses?: object;
        security?: unknown;
        requestBody?: { required?: boolean; content?: Record<string, { schema?: object }> };
      }
    >
  >;
  components?: { schemas?: Record<string, unknown>; securitySchemes?: unknown };
}

/**
 * The document @fastify/swagger built, completed (its `transformObject`). A copy is changed:
 * the schemas the routes validate with (their `errorMessage` included) stay as they are.
 */
export function completeDocument<T>(document: T, index: RouteFactIndex): T {
  const doc = JSON.parse(
    JSON.stringify({
      ...document,
      components: {
        ...(document as Document).components,
        schemas: {
          ...(document as Document).components?.schemas,
          ErrorDetail: ErrorDetailSchema,
          FieldErrors: FieldErrorsSchema,
          UpstreamAnswer: UpstreamAnswerSchema,
        },
      },
    }),
  ) as Document;
  toOpenApi30(doc.paths);
  toOpenApi30(doc.components!.schemas);
  doc.components!.securitySchemes = SECURITY_SCHEMES;
  for (const [path, operations] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      const facts = index.get(`${method} ${path}`);
      if (!facts) throw new Error(`OpenAPI: no route facts for ${method} ${path}`);
      operation.responses = { ...operation.responses, ...errorResponses(facts) };
      // A body schema that takes anything takes no body too (the checkout's).
      const body = operation.requestBody?.content?.['application/json']?.schema;
      if (body && Object.keys(body).length === 0) operation.requestBody!.required = false;
      operation.security = security(facts);
    }
  }
  nameSchemas(doc);
  return doc as T;
}

const SCHEMAS = '#/components/schemas/';

/** `checkoutCart` → `CheckoutCart`. */
const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/** JSON with keys sorted: two schemas of the same content compare equal. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Names the document's schemas for client generators (a Swift `Cart`, not an anonymous
 * `InlineResponse200`):
 * - every schema with a `title` (src/api-components.ts, `<item>Page`) moves into
 *   `components.schemas` under it, wherever it is nested, and a `$ref` takes its place
 *   (a nullable one: `allOf` of the `$ref`, `nullable`); two different schemas under one
 *   name are a mistake, refused here;
 * - @fastify/swagger's `def-N` (recursive schemas) take their title;
 * - a JSON request or 2xx body still inline is named after its operation:
 *   `<OperationId>Request`, `<OperationId>Response`.
 * The routes' own schemas are untouched: only the document changes.
 */
function nameSchemas(doc: Document): void {
  const components = doc.components!.schemas!;
  // def-N → its title, references included.
  const renamed = new Map<string, string>();
  for (const [key, schema] of Object.entries(components)) {
    const title = (schema as { title?: unknown }).title;
    if (/^def-\d+$/.test(key) && typeof title === 'string' && !(title in components)) {
      renamed.set(`${SCHEMAS}${key}`, `${SCHEMAS}${title}`);
      components[title] = schema;
      delete components[key];
    }
  }
  const hoist = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(hoist);
    if (!node || typeof node !== 'object') return node;
    const object: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      object[key] =
        key === '$ref' && typeof value === 'string' ? (renamed.get(value) ?? value) : hoist(value);
    }
    const title = object.title;
    if (typeof title !== 'string' || object.$ref !== undefined) return object;
    const { nullable, ...schema } = object;
    const known = components[title];
    if (known !== undefined && canonical(known) !== canonical(schema)) {
      throw new Error(`OpenAPI: two different schemas are named ${title}`);
    }
    components[title] = schema;
    const ref = { $ref: `${SCHEMAS}${title}` };
    return nullable === true ? { allOf: [ref], nullable: true } : ref;
  };
  for (const [key, schema] of Object.entries(components)) {
    // A component's own title names it already: only what it holds is hoisted.
    const { title, ...rest } = schema as Record<string, unknown>;
    const inner = hoist(rest) as Record<string, unknown>;
    components[key] = title === undefined ? inner : { title, ...inner };
  }
  for (const operations of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      const id = (operation as { operationId?: string }).operationId;
      const name = (suffix: string, content: { schema?: object } | undefined) => {
        if (!content?.schema) return;
        content.schema = hoist(content.schema) as object;
        if ('$ref' in content.schema || !id) return;
        const title = `${pascal(id)}${suffix}`;
        content.schema = hoist({ ...content.schema, title }) as object;
      };
      name('Request', operation.requestBody?.content?.['application/json']);
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const content = (response as { content?: Record<string, { schema?: object }> }).content;
        if (status.startsWith('2')) name('Response', content?.['application/json']);
        else if (content?.['application/json']) {
          content['application/json'].schema = hoist(content['application/json'].schema) as object;
        }
      }
    }
  }
  doc.components!.schemas = Object.fromEntries(
    Object.entries(components).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}
