import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import secureJson from 'secure-json-parse';
import { isDatabaseUnavailable, RequestAborted } from '../db/errors.js';
import { UpstreamFailure } from '../upstream/errors.js';
import { ApiError, errors } from './errors.js';
import { fieldErrors } from './validation.js';

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * The HTTP conventions of conventions.md, installed once for every route: JSON bodies
 * (an empty body is no body), error bodies, trailing-slash 308, JSON 404/405 with
 * `Allow`, and OPTIONS on every route.
 */
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
  // validator (400) where conventions.md wants 415. A route that reads another type (a
  // form) registers its own parser in its own plugin.
  app.removeAllContentTypeParsers();
  for (const type of ['application/json', /^application\/[\w.+-]+\+json$/]) {
    app.addContentTypeParser(type, { parseAs: 'string' }, (_request, body, done) => {
      const text = String(body).trim();
      if (text === '') return done(null, undefined);
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
    refuseNullCharacters(request);
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

export function sendApiError(reply: FastifyReply, error: ApiError): FastifyReply {
  reply.code(error.statusCode);
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply.type('application/json; charset=utf-8').serializer(JSON.stringify).send(error.body);
}

function toApiError(error: FastifyError, request: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof UpstreamFailure) return error.toApiError();
  if (error instanceof RequestAborted) return errors.clientClosedRequest();
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

function splitUrl(url: string): [string, string] {
  const at = url.indexOf('?');
  return at === -1 ? [url, ''] : [url.slice(0, at), url.slice(at + 1)];
}

const NUL = '\u0000';

/**
 * PostgreSQL text cannot hold U+0000, so such a value would fail in the database (500).
 * Refused here for every route, as DRF does: a path parameter names no object (404); a
 * query or body field is a 400 on that field.
 */
function refuseNullCharacters(request: FastifyRequest): void {
  const params = request.params as Record<string, unknown> | undefined;
  if (params && Object.values(params).some((v) => typeof v === 'string' && v.includes(NUL))) {
    throw errors.notFound();
  }
  const fields: Record<string, string[]> = {};
  const visit = (value: unknown, path: string[]) => {
    if (typeof value === 'string') {
      if (value.includes(NUL))
        fields[path.join('.') || 'non_field_errors'] = ['Null characters are not allowed.'];
    } else if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) visit(item, [...path, String(i)]);
    } else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) visit(item, [...path, key]);
    }
  };
  visit(request.query, []);
  visit(request.body, []);
  if (Object.keys(fields).length > 0) throw errors.validation(fields);
}
