import { eq } from 'drizzle-orm';
import { users } from '../db/schema.js';
import type { App } from '../deps.js';
import { errors } from '../http/errors.js';
import { usersContext } from '../users/context.js';
import { limitBy } from '../users/throttle.js';
import { LoginAnswer, LoginBody, RefreshAnswer, RefreshBody } from './schemas.js';
import { TokenError } from './tokens.js';
import { syncUser } from './users.js';

export default async function authRoutes(app: App): Promise<void> {
  const { upstream, clock, database } = app.deps;
  const { throttle } = usersContext(app);

  app.post(
    '/auth/jwt/token/',
    {
      config: { auth: 'public' },
      // Per client address and per username; separate from the restore counters.
      preValidation: limitBy(throttle, 'login', 'username'),
      schema: {
        tags: ['auth'],
        summary: 'Log in with the upstream credentials',
        description:
          'Rate-limited per client address and per username (`AUTH_RATE_LIMIT_PER_MINUTE` ' +
          'attempts per minute, fixed windows; every attempt counts): 429 ' +
          '`{"detail", "code": "throttled"}` with `Retry-After` in seconds.',
        security: [],
        body: LoginBody,
        response: { 200: LoginAnswer },
      },
    },
    async (request) => {
      const { username, password } = request.body;
      const pair = await upstream.login(username, password);
      if (!pair) throw errors.nonField('Unable to log in with provided credentials.');
      const profile = await upstream.me(pair.access_token);
      const userId = await syncUser(database.db, profile, clock.nowMicros());
      return {
        token: app.tokens.issue({ id: userId, username: profile.username }),
        upstream_token: pair.access_token,
        upstream_refresh_token: pair.refresh_token,
      };
    },
  );

  app.post(
    '/auth/jwt/refresh/',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Refresh a still valid access token (within the refresh window)',
        description:
          'Answers a new token with a new `exp` and the same `orig_iat`. Refused with 400 ' +
          '`{"non_field_errors": ["..."]}`, as djangorestframework-jwt answers: a token that ' +
          'does not verify or has expired (`Signature has expired.`), the token of a user that ' +
          "no longer exists (`User doesn't exist.`), and one past `orig_iat + " +
          'JWT_REFRESH_WINDOW_SECONDS` (`Refresh has expired.`).',
        security: [],
        body: RefreshBody,
        response: { 200: RefreshAnswer },
      },
    },
    async (request) => {
      let token: string;
      try {
        token = await app.tokens.refresh(request.body.token, async (id) => {
          const [user] = await database.db
            .select({ id: users.id, username: users.username })
            .from(users)
            .where(eq(users.id, id));
          return user;
        });
      } catch (error) {
        if (error instanceof TokenError) throw errors.nonField(error.message);
        throw error;
      }
      // djangorestframework-jwt's messages.
      if (token === 'unknown_user') throw errors.nonField("User doesn't exist.");
      if (token === 'window_passed') throw errors.nonField('Refresh has expired.');
      return { token };
    },
  );
}
