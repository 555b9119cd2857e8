/**
 * Every error answer of the API is built here, in the body shapes of docs/http-contract.md
 * (DRF's: `{"detail", "code"}`, or field errors `{"<field>": ["message"]}`).
 */
export type FieldErrors = Record<string, string[]>;

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.detail === 'string' ? body.detail : `HTTP ${statusCode}`);
  }
}

const detail = (status: number, code: string, text: string, headers?: Record<string, string>) =>
  new ApiError(status, { detail: text, code }, headers);

/** A restart takes a second or two; a client that retries sooner only adds load. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/**
 * The message refusing a token whose session was ended (src/protections/sessions.ts): 401 on
 * use, 400 on refresh.
 */
export const SESSION_ENDED = 'Session ended (password changed or reset): log in again.';

export const WWW_AUTHENTICATE = 'Bearer realm="api"';

export const errors = {
  /** 400 with messages per field; `non_field_errors` for the rest. */
  validation: (fields: FieldErrors) => new ApiError(400, fields),
  field: (field: string, message: string) => new ApiError(400, { [field]: [message] }),
  nonField: (message: string) => new ApiError(400, { non_field_errors: [message] }),
  notAuthenticated: () =>
    detail(401, 'not_authenticated', 'Authentication credentials were not provided.', {
      'WWW-Authenticate': WWW_AUTHENTICATE,
    }),
  tokenNotValid: (text = 'Given token not valid for any token type.') =>
    detail(401, 'token_not_valid', text, { 'WWW-Authenticate': WWW_AUTHENTICATE }),
  permissionDenied: () =>
    detail(403, 'permission_denied', 'You do not have permission to perform this action.'),
  originNotAllowed: () =>
    detail(
      403,
      'origin_not_allowed',
      'This origin may not open the notification WebSocket (see WS_ALLOWED_ORIGINS).',
    ),
  notFound: () => detail(404, 'not_found', 'Not found.'),
  invalidPage: () => detail(404, 'not_found', 'Invalid page.'),
  methodNotAllowed: (method: string, allow: string[]) =>
    detail(405, 'method_not_allowed', `Method "${method}" not allowed.`, {
      Allow: allow.join(', '),
    }),
  checkoutInProgress: () =>
    detail(
      409,
      'checkout_in_progress',
      'A checkout of this cart is already in progress. Retry to get its result.',
    ),
  idempotencyKeyReused: () =>
    detail(
      422,
      'idempotency_key_reused',
      'This Idempotency-Key was already used with another request. Use a new key for a new request.',
    ),
  payloadTooLarge: () => detail(413, 'payload_too_large', 'Request body is too large.'),
  unsupportedMediaType: (type: string) =>
    detail(415, 'unsupported_media_type', `Unsupported media type "${type}" in request.`),
  throttled: (retryAfterSeconds: number) =>
    detail(
      429,
      'throttled',
      `Request was throttled. Expected available in ${retryAfterSeconds} seconds.`,
      { 'Retry-After': String(retryAfterSeconds) },
    ),
  upstreamTokenMissing: () =>
    detail(
      400,
      'upstream_token_missing',
      'The Authorization-Upstream header with the upstream token is required.',
    ),
  upstreamTokenNotValid: () =>
    detail(401, 'upstream_token_not_valid', 'The upstream system refused the upstream token.'),
  upstreamError: (text = 'The upstream system answered with an unusable response.') =>
    detail(502, 'upstream_error', text),
  upstreamUnavailable: (text = 'The upstream system is unavailable.') =>
    detail(503, 'upstream_unavailable', text),
  upstreamTimeout: () =>
    detail(504, 'upstream_timeout', 'The upstream system did not answer in time.'),
  databaseUnavailable: () =>
    detail(503, 'database_unavailable', 'The database is unavailable. Try again shortly.', {
      'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS),
    }),
  restoreUnavailable: () =>
    detail(
      503,
      'restore_unavailable',
      'Password restore is not available: this service has no mail server configured.',
    ),
  /** Nobody reads it: the client has gone (nginx's 499), kept apart from errors in the logs. */
  tooManyConnections: (retryAfterSeconds: number) =>
    detail(
      503,
      'too_many_connections',
      'This server holds as many notification connections as it can. Try again shortly.',
      { 'Retry-After': String(retryAfterSeconds) },
    ),
  clientClosedRequest: () => detail(499, 'client_closed_request', 'Client closed request.'),
  serverError: () => detail(500, 'server_error', 'A server error occurred.'),
};
