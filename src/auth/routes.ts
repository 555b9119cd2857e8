import type { App } from '../deps.js';
import { protections } from '../protections/context.js';
import { limitBy } from '../protections/throttle.js';
import { logIn, refreshToken } from './logic.js';
import {
  LoginAnswerSchema,
  LoginBodySchema,
  RefreshAnswerSchema,
  RefreshBodySchema,
} from './schemas.js';

export default async function authRoutes(app: App): Promise<void> {
  const { upstream, clock, database } = app.deps;
  const { db } = database;
  const { throttle, failures } = protections(app);

  app.post(
    '/auth/jwt/token/',
    {
      // The answer holds tokens: never stored (src/http/no-store.ts), errors included.
      config: { auth: 'public', upstream: 'no-token', noStore: true },
      // Per client address and per username; separate from the restore counters.
      preValidation: limitBy(throttle, 'login', 'username'),
      schema: {
        tags: ['auth'],
        operationId: 'createToken',
        summary: 'Log in with the upstream credentials',
        description:
          'Rate-limited per client address and per username (`AUTH_RATE_LIMIT_PER_MINUTE` ' +
          'attempts per minute, fixed windows; every attempt counts): 429 ' +
          '`{"detail", "code": "throttled"}` with `Retry-After` in seconds. Wrong passwords ' +
          'are also bounded per account over 24 hours, counted on every instance: ' +
          '`AUTH_FAILURES_PER_DAY` (default 100) from one client address (IPv6: its /64) and ' +
          '`AUTH_ACCOUNT_FAILURES_PER_DAY` (default 1000) from all addresses; beyond, every ' +
          'login of that account (from that address) is 429 `throttled` with `Retry-After` ' +
          'until 24 hours after its first counted failure, the right password included. A ' +
          'successful login does not count.',
        body: LoginBodySchema,
        response: { 200: LoginAnswerSchema },
      },
    },
    async (request) => {
      const { username, password } = request.body;
      const guard = <T>(check: () => Promise<T>, wrong: (result: T) => boolean) =>
        failures.guard(username, request.ip, check, wrong);
      return logIn({ db, upstream, tokens: app.tokens, clock, guard }, username, password);
    },
  );

  app.post(
    '/auth/jwt/refresh/',
    {
      config: { auth: 'public', noStore: true },
      schema: {
        tags: ['auth'],
        operationId: 'refreshToken',
        summary: 'Refresh a still valid access token (within the refresh window)',
        description:
          'Answers a new token with a new `exp` and the same `orig_iat`. Refused with 400 ' +
          '`{"non_field_errors": ["..."]}`, as djangorestframework-jwt answers: a token that ' +
          'does not verify or has expired (`Signature has expired.`), the token of a user that ' +
          "no longer exists (`User doesn't exist.`), a token issued before the user's password " +
          'was changed or reset (`Session ended (password changed or reset): log in again.`), ' +
          'and one past `orig_iat + ' +
          'JWT_REFRESH_WINDOW_SECONDS` (`Refresh has expired.`).',
        body: RefreshBodySchema,
        response: { 200: RefreshAnswerSchema },
      },
    },
    async (request) => ({ token: await refreshToken(db, app.tokens, request.body.token) }),
  );
}
