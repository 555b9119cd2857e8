import formbody from '@fastify/formbody';
import type { FastifyError, FastifyReply } from 'fastify';
import type { App } from '../deps.js';
import { ApiError, errors } from '../http/errors.js';
import { protections } from '../protections/context.js';
import { limitBy } from '../protections/throttle.js';
import { UpstreamFailure } from '../upstream/errors.js';
import { isCommonPassword, TOO_COMMON } from './common-passwords.js';
import { donePage, errorPage, expiredPage, formPage } from './html.js';
import { codeHash, isUsable, redeem } from './restore.js';
import { CodeParamsSchema, MAX_PASSWORD, MIN_PASSWORD } from './schemas.js';

const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

function html(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(body);
}

const PAGE =
  'The page of the e-mailed password-restore link (variant B): HTML, errors included, ' +
  'outside `/api/v1/`. GET shows a form (404 page when the link is unknown, expired or ' +
  'used); the form posts `application/x-www-form-urlencoded` `password` and ' +
  '`repeat_password` to the same URL: 200 page when the password is set (every token of ' +
  'the user issued before is then refused); 400 page with ' +
  'the form again (the code is not spent) for a mismatch, a password outside 8 to 128 ' +
  'characters or a common password (never sent upstream); 400 page for an expired or used ' +
  'link. Each POST that reaches the code is an attempt, as with `restore_password/` (5 per ' +
  'code, `RESTORE_ATTEMPTS_PER_DAY` per account). ' +
  'Rate-limited per client address with the restore endpoints (429 page with `Retry-After`).';

/** `GET/POST /users/restore-password/<code>/` (register at the root, not under /api/v1). */
export async function restorePageRoutes(app: App): Promise<void> {
  const { upstream, clock, database, config } = app.deps;
  const { db } = database;
  const { throttle } = protections(app);
  // Only this plugin reads forms; the API stays JSON-only.
  await app.register(formbody, { bodyLimit: 16 * 1024 });

  app.addHook('onSend', async (_request, reply) => {
    reply.headers(PAGE_HEADERS);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.validation) return html(reply, 404, expiredPage());
    const apiError = pageError(error);
    if (error instanceof UpstreamFailure) {
      request.log.warn({ upstream: error.describe() }, 'upstream call failed');
    } else if (apiError.statusCode >= 500) {
      request.log.error({ err: error }, 'request failed');
    }
    for (const [name, value] of Object.entries(apiError.headers)) reply.header(name, value);
    return html(reply, apiError.statusCode, errorBody(apiError.statusCode));
  });

  const url = '/users/restore-password/:code/';
  const options = {
    // The page's URL holds the code: no cache keeps the page or its answer.
    config: { auth: 'public' as const, noStore: true },
    preValidation: limitBy(throttle, 'restore'),
    schema: {
      tags: ['users'],
      operationId: 'showRestorePasswordPage',
      summary: 'Password-restore page (HTML form)',
      produces: ['text/html'],
      description: PAGE,
      params: CodeParamsSchema,
    },
  };
  const hashOf = (code: string) => codeHash(config.jwtSecret, 'link', code);
  // The rules of restore_password/: one attempt of the code and of the account's day per POST.
  const budget = {
    codesPerDay: config.restoreCodesPerDay,
    attemptsPerDay: config.restoreAttemptsPerDay,
  };

  app.get(url, options, async (request, reply) => {
    const usable = await isUsable(db, hashOf(request.params.code), clock.nowMicros(), budget);
    return usable ? html(reply, 200, formPage()) : html(reply, 404, expiredPage());
  });

  // Only the form's POST sets the password upstream.
  const post = {
    ...options,
    config: { ...options.config, upstream: 'no-token' as const },
    schema: { ...options.schema, operationId: 'submitRestorePasswordPage' },
  };
  app.post(url, post, async (request, reply) => {
    const hash = hashOf(request.params.code);
    if (!(await isUsable(db, hash, clock.nowMicros(), budget))) {
      return html(reply, 400, expiredPage());
    }
    const body = (request.body ?? {}) as Record<string, unknown>;
    const password = typeof body.password === 'string' ? body.password : '';
    const repeat = typeof body.repeat_password === 'string' ? body.repeat_password : '';
    const problem =
      [...password].length < MIN_PASSWORD
        ? `The password must have at least ${MIN_PASSWORD} characters.`
        : [...password].length > MAX_PASSWORD
          ? `The password must have at most ${MAX_PASSWORD} characters.`
          : isCommonPassword(password)
            ? `${TOO_COMMON} Choose one that others are unlikely to use.`
            : password !== repeat
              ? 'The two passwords do not match.'
              : undefined;
    if (problem) return html(reply, 400, formPage(problem));
    const target = { variant: 'link' as const, hash };
    if (
      !(await redeem(db, upstream, target, password, clock.nowMicros(), budget, app.deps.notifier))
    ) {
      return html(reply, 400, expiredPage());
    }
    return html(reply, 200, donePage());
  });
}

function pageError(error: FastifyError): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof UpstreamFailure) return error.toApiError();
  if (error.statusCode === 413) return errors.payloadTooLarge();
  if (error.statusCode === 415) return errors.unsupportedMediaType('');
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return errors.nonField('Bad request.');
  }
  return errors.serverError();
}

function errorBody(status: number): string {
  if (status === 429) {
    return errorPage('Too many attempts', 'Too many attempts. Wait a minute, then try again.');
  }
  if (status >= 500) {
    return errorPage(
      'Password not set',
      'The password could not be set right now. Try again in a few minutes.',
    );
  }
  return errorPage('Request not understood', 'The form could not be read. Open the link again.');
}
