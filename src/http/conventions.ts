import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import secureJson from 'secure-json-parse';
import { isDatabaseUnavailable, RequestAborted } from '../db/errors.js';
import {
  CheckoutInProgress,
  DomainError,
  IdempotencyKeyReused,
  Invalid,
  NotFound,
} from '../errors.js';
import { UpstreamFailure } from '../upstream/errors.js';
import { ApiError, errors } from './errors.js';
import { markNoStore } from './no-store.js';
import { setSecurityHeaders } from './security-headers.js';
import { fieldErrors } from './validation.js';

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * The HTTP conventions of docs/http-contract.md, installed once for every route: JSON bodies
 * (an empty body is no body), error bodies, trailing-slash 308, JSON 404/405 with
 * `Allow`, and OPTIONS on every route.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** Objects the body refers to by id: a NotFound of that kind is a 400 on the field. */
    references?: Record<string, string>;
    /** Upstream's own 503 JSON is this route's answer when upstream is unavailable. */
    passUpstream503?: boolean;
  }
}

export function installConventions(app: FastifyInstance): void {
  // A second router that only answers "which methods does this path have?".
  const index = FindMyWay();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (!index.hasRoute(method as HTTPMethod, route.url)) {
        index.on(method as HTTPMethod, route.url, () => {});
      }
    }
  });
  const allowedMethods = (path: string): string[] => {
    const found = METHOD_ORDER.filter(
      (m) => m !== 'OPTIONS' && index.find(m as HTTPMethod, path) !== null,
    );
    return found.length > 0 ? [...found, 'OPTIONS'] : [];
  };

  // Only JSON is a body here: Fastify's default text/plain parser would hand a string to the
  // validator (400) where docs/http-contract.md wants 415. A route that reads another type (a
  // form) registers its own parser in its own plugin.
  app.removeAllContentTypeParsers();
  for (const type of ['application/json', /^application\/[\w.+-]+\+json$/]) {
    app.addContentTypeParser(type, { parseAs: 'string' }, (_request, body, done) => {
      const text = String(body).trim();
      if (text === '') return done(null, undefined);
      // Before parsing: a deep or dense body costs JSON.parse and every later walk (and
      // JSON.parse throws RangeError somewhere past a few thousand levels).
      const problem = jsonShapeProblem(text);
      if (problem) return done(errors.nonField(problem), undefined);
      try {
        done(null, secureJson.parse(text, undefined, { protoAction: 'remove' }));
      } catch {
        done(errors.nonField('JSON parse error - the request body is not valid JSON.'), undefined);
      }
    });
  }

  // As in DRF, no body where an object is expected is an empty object: the answer names the
  // required fields instead of a bare "may not be null".
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined) {
      const schema = request.routeOptions.schema?.body as { type?: unknown } | undefined;
      if (schema?.type === 'object') request.body = {};
    }
    refuseBadText(request);
    refuseLongLists(request.routeOptions.schema?.body, request.body);
  });

  app.setNotFoundHandler((request, reply) => {
    const [path, query] = splitUrl(request.url);
    const allow = allowedMethods(path);
    // Only a path no route matches is redirected: under a wildcard route (the docs' static
    // files) a missing file is a 404, not a redirect to a slashed path that is missing too.
    if (allow.length === 0 && !path.endsWith('/') && allowedMethods(`${path}/`).length > 0) {
      // No body: a redirect is not an error, and "Not found." would mislead.
      return reply
        .code(308)
        .header('Location', `${path}/${query ? `?${query}` : ''}`)
        .send();
    }
    if (request.method === 'OPTIONS' && allow.length > 0) {
      return reply.code(200).header('Allow', allow.join(', ')).send({ allowed_methods: allow });
    }
    // A route of this method exists but answered "not found" itself (callNotFound): a 404.
    if (allow.length > 0 && !allow.includes(request.method)) {
      return sendApiError(reply, errors.methodNotAllowed(request.method, allow));
    }
    return sendApiError(reply, errors.notFound());
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const apiError = toApiError(error, request);
    if (error instanceof RequestAborted) {
      request.log.info('client went away before its database work: nothing was run');
    } else if (apiError.body.code === 'database_unavailable') {
      request.log.warn({ err: { message: error.message } }, 'database unavailable');
    } else if (apiError.statusCode >= 500 && !(error instanceof UpstreamFailure)) {
      request.log.error({ err: error }, 'request failed');
    } else if (error instanceof UpstreamFailure) {
      request.log.warn({ upstream: error.describe() }, 'upstream call failed');
    }
    return sendApiError(reply, apiError);
  });
}

/**
 * The router's own refusals, before any route is found: a path with bad percent-encoding
 * (`%ZZ`, or UTF-8 that decodes to no text, such as an unpaired surrogate's `%ED%A0%80`)
 * or a parameter longer than `maxParamLength`. Such a path names no object: 404, in the
 * error body of every other answer (Fastify's own would be a 400 or 414 echoing the path).
 */
export function frameworkErrors(
  _error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  // Fastify runs no hook for these answers: the headers of every other answer, set here.
  setSecurityHeaders(reply);
  markNoStore(request, reply);
  return sendApiError(reply, errors.notFound());
}

export function sendApiError(reply: FastifyReply, error: ApiError): FastifyReply {
  reply.code(error.statusCode);
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply.type('application/json; charset=utf-8').serializer(JSON.stringify).send(error.body);
}

function toApiError(error: FastifyError, request: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof UpstreamFailure) {
    return upstreamAnswer(error, request.routeOptions.config.passUpstream503);
  }
  if (error instanceof RequestAborted) return errors.clientClosedRequest();
  if (error instanceof DomainError) return domainError(error, request);
  if (isDatabaseUnavailable(error)) return errors.databaseUnavailable();
  if (error.validation) {
    // A malformed path parameter names no object that can exist.
    if (error.validationContext === 'params') return errors.notFound();
    return errors.validation(fieldErrors(error.validation));
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return errors.payloadTooLarge();
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return errors.unsupportedMediaType(request.headers['content-type'] ?? '');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return errors.nonField('JSON parse error - the request body is not valid JSON.');
  }
  if (error.statusCode === 413) return errors.payloadTooLarge();
  if (error.statusCode === 415)
    return errors.unsupportedMediaType(request.headers['content-type'] ?? '');
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new ApiError(error.statusCode, { detail: error.message, code: 'invalid_request' });
  }
  return errors.serverError();
}

/**
 * An upstream failure as answered: upstream's own 503 JSON on a route that passes it
 * through (`config.passUpstream503`, the checkout: docs/http-contract.md), else its own answer.
 */
export function upstreamAnswer(failure: UpstreamFailure, passUpstream503 = false): ApiError {
  if (
    passUpstream503 &&
    failure.kind === 'unavailable' &&
    typeof failure.body === 'object' &&
    failure.body !== null
  ) {
    return new ApiError(503, failure.body as Record<string, unknown>);
  }
  return failure.toApiError();
}

/** The one place a domain error becomes an HTTP answer. */
function domainError(error: DomainError, request: FastifyRequest): ApiError {
  if (error instanceof NotFound) {
    const field = request.routeOptions.config.references?.[error.what];
    return field ? errors.field(field, error.reference) : errors.notFound();
  }
  if (error instanceof Invalid) return errors.validation(error.fields);
  if (error instanceof CheckoutInProgress) return errors.checkoutInProgress();
  if (error instanceof IdempotencyKeyReused) return errors.idempotencyKeyReused();
  return errors.serverError();
}

function splitUrl(url: string): [string, string] {
  const at = url.indexOf('?');
  return at === -1 ? [url, ''] : [url.slice(0, at), url.slice(at + 1)];
}

/**
 * Arrays and objects nest at most this deep in a JSON body; deeper is a 400 before the body
 * is parsed. The API's own bodies nest 2 deep (store hours: a list of objects).
 */
export const MAX_JSON_DEPTH = 32;

/**
 * A JSON body holds at most this many values (counted as its arrays, objects and commas);
 * more is a 400 before the body is parsed. The largest body of the API (a week of store
 * hours) has about 30. Parsing and walking cost about 0.1 to 0.2 µs a value: 1 MiB of `[]`
 * or `{"k1":0,…}` (half a million values) would take 50 to 100 ms of CPU (and a few MB of
 * memory) on every request.
 */
export const MAX_JSON_VALUES = 10_000;

const TOO_DEEP = `The request body is nested too deeply (at most ${MAX_JSON_DEPTH} levels of arrays and objects).`;
const TOO_MANY = `The request body has too many values (at most ${MAX_JSON_VALUES}).`;

const QUOTE = 0x22;
const COMMA = 0x2c;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Why JSON text is refused before it is parsed (nested deeper than MAX_JSON_DEPTH, or more
 * than MAX_JSON_VALUES values), if it is: one pass over the text that stops at the first
 * value too many, strings skipped with indexOf. Malformed text is left to JSON.parse.
 */
export function jsonShapeProblem(text: string): string | undefined {
  let depth = 0;
  let values = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = endOfString(text, i);
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > MAX_JSON_DEPTH) return TOO_DEEP;
      if (++values > MAX_JSON_VALUES) return TOO_MANY;
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      depth--;
    } else if (c === COMMA) {
      if (++values > MAX_JSON_VALUES) return TOO_MANY;
    }
  }
  return undefined;
}

/** The index of the quote that closes the string opened at `start` (or the end of text). */
function endOfString(text: string, start: number): number {
  let at = start;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at === -1) return text.length;
    // Escaped when an odd number of backslashes stands before it.
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}

const NUL = '\u0000';

/** Field errors named at most, however many values of a body are refused. */
const MAX_REPORTED_FIELDS = 20;

/** Why PostgreSQL cannot take this text, if it cannot. */
function textProblem(value: string): string | undefined {
  if (value.includes(NUL)) return 'Null characters are not allowed.';
  // pg would store U+FFFD in place of each: the value would silently change.
  if (!value.isWellFormed()) return 'Unpaired surrogate characters are not allowed.';
  return undefined;
}

/**
 * PostgreSQL text cannot hold U+0000 (the query fails: a 500), and UTF-8 cannot hold an
 * unpaired UTF-16 surrogate (JSON `"\ud800"`: stored as U+FFFD). Both are refused here for
 * every route, as DRF does for null characters: a path parameter names no object (404); a
 * query or body value is a 400 on its field.
 */
function refuseBadText(request: FastifyRequest): void {
  const params = request.params as Record<string, unknown> | undefined;
  if (
    params &&
    Object.values(params).some((v) => typeof v === 'string' && textProblem(v) !== undefined)
  ) {
    throw errors.notFound();
  }
  const fields: Record<string, string[]> = {};
  findBadText(request.query, fields);
  findBadText(request.body, fields);
  if (Object.keys(fields).length > 0) throw errors.validation(fields);
}

/**
 * Ajv runs with allErrors: a 1 MiB list where the schema allows 7 entries would be validated
 * entry by entry (a million errors, seconds of CPU, an answer of megabytes). A list longer
 * than its schema's maxItems is refused before validation, with Ajv's message. Every list
 * of a request body schema has a maxItems (a test checks it).
 */
function refuseLongLists(schema: unknown, value: unknown, path: string[] = []): void {
  if (!schema || typeof schema !== 'object' || path.length > MAX_JSON_DEPTH) return;
  const s = schema as {
    maxItems?: number;
    items?: unknown;
    properties?: Record<string, unknown>;
    anyOf?: unknown[];
    oneOf?: unknown[];
  };
  for (const branch of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) {
    refuseLongLists(branch, value, path);
  }
  if (Array.isArray(value)) {
    if (typeof s.maxItems === 'number' && value.length > s.maxItems) {
      throw errors.field(
        path.join('.') || 'non_field_errors',
        `Ensure this field has no more than ${s.maxItems} elements.`,
      );
    }
    // Only a list of bounded length is looked into (every list of a body schema is).
    if (s.items && typeof s.maxItems === 'number') {
      for (const [i, item] of value.entries()) refuseLongLists(s.items, item, [...path, String(i)]);
    }
  } else if (value && typeof value === 'object' && s.properties) {
    for (const [key, property] of Object.entries(s.properties)) {
      if (Object.hasOwn(value, key)) {
        refuseLongLists(property, (value as Record<string, unknown>)[key], [...path, key]);
      }
    }
  }
}

interface Frame {
  value: object;
  depth: number;
  key: string | number;
}

/**
 * Adds a field error for each refused string in `root` (at most MAX_REPORTED_FIELDS). An
 * iterative walk, linear in the size of the value: the path of a field is only built for a
 * string that is refused.
 */
function findBadText(root: unknown, fields: Record<string, string[]>): void {
  const path: (string | number)[] = [];
  // true once enough fields are named.
  const check = (value: string, key?: string | number): boolean => {
    const problem = textProblem(value);
    if (!problem) return false;
    const name = (key === undefined ? path : [...path, key]).join('.');
    fields[name || 'non_field_errors'] = [problem];
    return Object.keys(fields).length >= MAX_REPORTED_FIELDS;
  };
  if (typeof root === 'string') {
    check(root);
    return;
  }
  if (!root || typeof root !== 'object') return;
  const stack: Frame[] = [{ value: root, depth: 0, key: '' }];
  const visit = (value: unknown, depth: number, key: string | number): boolean => {
    if (typeof value === 'string') return check(value, key);
    if (value && typeof value === 'object') stack.push({ value, depth, key });
    return false;
  };
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    path.length = Math.max(frame.depth - 1, 0);
    if (frame.depth > 0) path.push(frame.key);
    const depth = frame.depth + 1;
    if (Array.isArray(frame.value)) {
      const list = frame.value;
      for (let i = 0; i < list.length; i++) if (visit(list[i], depth, i)) return;
    } else {
      const object = frame.value as Record<string, unknown>;
      for (const key of Object.keys(object)) if (visit(object[key], depth, key)) return;
    }
  }
}
