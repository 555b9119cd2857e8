import type { Clock } from '../clock.js';
import type { Db } from '../db/client.js';
import { Invalid } from '../errors.js';
import { SESSION_ENDED } from '../http/errors.js';
import type { UpstreamClient } from '../upstream/client.js';
import type { LoginAnswer } from './schemas.js';
import { TokenError, type TokenService } from './tokens.js';
import { findTokenUser, storedSession, syncUser } from './users.js';

export interface LoginDeps {
  db: Db;
  upstream: UpstreamClient;
  tokens: TokenService;
  clock: Clock;
  /** Runs the password check within the account's daily bounds (src/protections/failures.ts). */
  guard?: <T>(check: () => Promise<T>, wrong: (result: T) => boolean) => Promise<T>;
}

/**
 * Logs in upstream with the user's credentials, brings the local user and memberships up to
 * date from the upstream profile, and answers both sessions' tokens. Invalid when upstream
 * refuses the credentials.
 */
export async function logIn(
  { db, upstream, tokens, clock, guard }: LoginDeps,
  username: string,
  password: string,
): Promise<LoginAnswer> {
  // The generation is read before the password is checked upstream: a password change or
  // reset that ends the sessions while this login is under way also ends this one (a login
  // with the old password must not outlive the change).
  const before = await storedSession(db, username);
  const check = () => upstream.login(username, password);
  const pair = await (guard ? guard(check, (answer) => !answer) : check());
  if (!pair) throw Invalid.nonField('Unable to log in with provided credentials.');
  const profile = await upstream.me(pair.access_token);
  const userId = await syncUser(db, profile, clock.nowMicros());
  // A first login (or upstream spelling the username otherwise) had no row to read before.
  const sessionGeneration =
    before?.username === profile.username
      ? before.sessionGeneration
      : ((await findTokenUser(db, userId))?.sessionGeneration ?? 0);
  return {
    token: tokens.issue({ id: userId, username: profile.username, sessionGeneration }),
    upstream_token: pair.access_token,
    upstream_refresh_token: pair.refresh_token,
  };
}

/**
 * A new access token for a still valid one (within the refresh window). Invalid, with
 * djangorestframework-jwt's messages, when the token does not verify or has expired, its
 * user no longer exists, or the window has passed.
 */
export async function refreshToken(db: Db, tokens: TokenService, token: string): Promise<string> {
  let refreshed: Awaited<ReturnType<TokenService['refresh']>>;
  try {
    refreshed = await tokens.refresh(token, (id) => findTokenUser(db, id));
  } catch (error) {
    if (error instanceof TokenError) throw Invalid.nonField(error.message);
    throw error;
  }
  if (refreshed === 'unknown_user') throw Invalid.nonField("User doesn't exist.");
  if (refreshed === 'session_ended') throw Invalid.nonField(SESSION_ENDED);
  if (refreshed === 'window_passed') throw Invalid.nonField('Refresh has expired.');
  return refreshed;
}
