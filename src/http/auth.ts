import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TokenError, type TokenService } from '../auth/tokens.js';
import type { Database } from '../db/client.js';
import { type Statement, statement } from '../db/statement.js';
import { errors, SESSION_ENDED } from './errors.js';

/** Who may call a route. Routes under /api/v1/ default to 'user'; everything else is public. */
export type AuthLevel = 'public' | 'user' | 'staff' | 'admin';

export interface AuthUser {
  id: number;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  telephone: string;
  reference: string | null;
  isStaff: boolean;
  isAdmin: boolean;
  /** The session generation the caller's token carries (src/protections/sessions.ts). */
  sessionGeneration: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthLevel;
    /**
     * The route's one read brings the caller's row in the same call behind a pooler
     * (`readWithCaller`): the hook checks the token and leaves the look-up to the read.
     */
    callerInRead?: boolean;
  }
  interface FastifyRequest {
    /** Set on every authenticated route; null on public ones. */
    authUser: AuthUser | null;
    /** A valid token whose user is still to be looked up (`callerInRead`); else null. */
    pendingCaller: PendingCaller | null;
  }
}

/** What a verified token claims, and the level its route asks for. */
export interface PendingCaller {
  id: number;
  username: string;
  generation: number;
  level: AuthLevel;
}

/** A route's level: its `config.auth`, else 'user' under /api/v1/ and 'public' elsewhere. */
export function authLevelOf(auth: AuthLevel | undefined, url: string): AuthLevel {
  return auth ?? (url.startsWith('/api/v1/') ? 'user' : 'public');
}

/** The authenticated user of a route that is not public. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.authUser) throw errors.notAuthenticated();
  return request.authUser;
}

/** Staff and admins see everything a role unlocks; admins can do all staff can. */
export const isStaff = (user: AuthUser) => user.isStaff || user.isAdmin;

/**
 * The caller's look-up behind a pooler (migration 0019, `auth_user`); also what
 * `readWithCaller` sends where a route's read has no call that brings the caller.
 */
export const CALLER_ALONE = 'select * from auth_user($1)';

/**
 * The caller, read on every authenticated request (a prepared statement), with the session
 * generation its token must carry: ending sessions costs the request no other look-up.
 */
export const USER_BY_ID = statement(
  `select id, username, email, first_name as "firstName",
  last_name as "lastName", telephone, reference, is_staff as "isStaff", is_admin as "isAdmin",
  session_generation as "sessionGeneration"
  from users where id = $1`,
  // Behind a pooler (migration 0019: the same text, its plan kept per server connection).
  { pooled: CALLER_ALONE },
);

export function installAuth(app: FastifyInstance, tokens: TokenService, database: Database): void {
  app.decorateRequest('authUser', null);
  app.decorateRequest('pendingCaller', null);
  // onRequest: a request without credentials is turned away before its body is read.
  app.addHook('onRequest', async (request) => {
    if (request.is404) return;
    const url = request.routeOptions.url ?? '';
    const level = authLevelOf(request.routeOptions.config.auth, url);
    if (level === 'public') return;
    const token = bearerToken(request.headers.authorization);
    if (!token) throw errors.notAuthenticated();
    let claims: { sub: string; username: string; gen: number };
    try {
      claims = tokens.verify(token);
    } catch (error) {
      if (error instanceof TokenError) throw errors.tokenNotValid(error.message);
      throw error;
    }
    const caller = {
      id: Number(claims.sub),
      username: claims.username,
      generation: claims.gen,
      level,
    };
    // Behind a pooler every call is parsed and planned anew: the route's read brings the
    // caller too, one call instead of two (decision 0016). Until then `currentUser` refuses.
    if (database.pooled && request.routeOptions.config.callerInRead) {
      request.pendingCaller = caller;
      return;
    }
    const [user] = await database.run<AuthUser>(USER_BY_ID, [caller.id]);
    request.authUser = acceptCaller(caller, user);
  });
}

/** The caller's row judged against its token and its route's level: the user, or a 401/403. */
function acceptCaller(caller: PendingCaller, user: AuthUser | undefined): AuthUser {
  // A user's username never changes but when the user is erased (`users erase`, which
  // keeps the row under a tombstone name): tokens issued before it name someone gone.
  if (!user || user.username !== caller.username) throw errors.tokenNotValid('User not found.');
  // The password was changed or reset since the token's session began (src/protections/sessions.ts).
  if (user.sessionGeneration !== caller.generation) throw errors.tokenNotValid(SESSION_ENDED);
  if (caller.level === 'staff' && !isStaff(user)) throw errors.permissionDenied();
  if (caller.level === 'admin' && !user.isAdmin) throw errors.permissionDenied();
  return user;
}

/**
 * A route's one read with the caller's look-up in the same call, where the hook left it to
 * the read (`callerInRead`, behind a pooler). `call` is a function call (migration 0022)
 * taking the caller's id before `values` and answering the caller's columns (as `auth_user`)
 * then the read's, read's null where it has none; no row when the user is gone. The caller
 * is judged as the hook judges it before the read's answer is used. Returns the user and the
 * read's columns; null where the caller was looked up already (a direct connection, PGlite):
 * the route then runs its read as usual.
 */
export function readWithCaller<Row extends object>(
  request: FastifyRequest,
  database: Database,
  call: string,
  values: unknown[],
): Promise<{ user: AuthUser; row: Row } | null> {
  return withCaller<Row>(request, database, { text: call }, (caller) => [caller.id, ...values]);
}

/**
 * As readWithCaller, for a write (the checkout's claim, migration 0023; the item add, 0027):
 * `call` takes the caller's id, username and session generation before `values`, and writes
 * only when the user's row still carries them, so that nothing is written for a caller
 * refused here. Run once, never again after a lost answer (`unverifiedWrite`: its caller
 * copes with that), or with `verified` in a verified transaction of its own, as any write.
 * For routes any signed-in user may call: the call does not check a staff or admin level.
 */
export function writeWithCaller<Row extends object>(
  request: FastifyRequest,
  database: Database,
  call: string,
  values: unknown[],
  { verified = false }: { verified?: boolean } = {},
): Promise<{ user: AuthUser; row: Row } | null> {
  // The call checks who the caller is, not what the route asks of them: on a staff or admin
  // route it would write before the level is judged. Refused before anything is sent.
  const level = request.pendingCaller?.level;
  if (level === 'staff' || level === 'admin') {
    return Promise.reject(
      new Error(`writeWithCaller on a ${level} route writes before its level is judged`),
    );
  }
  const statement = verified ? { text: call, write: true } : { text: call, unverifiedWrite: true };
  return withCaller<Row>(request, database, statement, (caller) => [
    caller.id,
    caller.username,
    caller.generation,
    ...values,
  ]);
}

/**
 * Where the hook left the caller to the route (`callerInRead`) and the route must know it
 * before its call that would bring it (an `Idempotency-Key` is kept per user): looked up
 * alone, as the hook does. Nothing where the hook looked it up already.
 */
export async function lookUpCaller(request: FastifyRequest, database: Database): Promise<void> {
  await readWithCaller(request, database, CALLER_ALONE, []);
}

/** One call with the pending caller's `args`, its caller's columns judged as the hook judges them. */
async function withCaller<Row extends object>(
  request: FastifyRequest,
  database: Database,
  call: Statement,
  args: (caller: PendingCaller) => unknown[],
): Promise<{ user: AuthUser; row: Row } | null> {
  const caller = request.pendingCaller;
  if (!caller) return null;
  const [raw] = await database.run<AuthUser & Row>(call, args(caller));
  const answer = raw && fromCallerJson(raw);
  const {
    id,
    username,
    email,
    firstName,
    lastName,
    telephone,
    reference,
    isStaff: staff,
    isAdmin,
    sessionGeneration,
    ...row
  } = answer ?? ({} as AuthUser & Row);
  const user = answer && {
    id,
    username,
    email,
    firstName,
    lastName,
    telephone,
    reference,
    isStaff: staff,
    isAdmin,
    sessionGeneration,
  };
  request.authUser = acceptCaller(caller, user);
  request.pendingCaller = null;
  return { user: request.authUser, row: row as Row };
}

/**
 * The one column of a call that answers the caller's columns and the read's in one text
 * (migration 0028), NULL when the user is gone: `caller_json`, their JSON object; or
 * `caller_json:<column>`, the caller's JSON object, then (unless the column is null) a
 * newline and that column's text as it is (JSON escapes every newline in the object).
 */
export const CALLER_JSON = 'caller_json';

/** A call's row: the caller's and the read's columns (undefined: the user is gone). */
export function fromCallerJson<Row extends object>(row: Row): Row | undefined {
  const keys = Object.keys(row);
  if (keys.length !== 1) return row;
  const [key] = keys as [string];
  if (key !== CALLER_JSON && !key.startsWith(`${CALLER_JSON}:`)) return row;
  const text = (row as Record<string, unknown>)[key];
  if (typeof text !== 'string') return undefined;
  const column = key.slice(CALLER_JSON.length + 1);
  if (!column) return JSON.parse(text) as Row;
  const cut = text.indexOf('\n');
  return cut < 0
    ? ({ ...JSON.parse(text), [column]: null } as Row)
    : ({ ...JSON.parse(text.slice(0, cut)), [column]: text.slice(cut + 1) } as Row);
}

/** `Bearer <token>` or, for older clients, `JWT <token>`. */
function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^(?:Bearer|JWT)\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** The caller's upstream token from `Authorization-Upstream` (`Bearer x` or bare `x`). */
export function upstreamToken(request: FastifyRequest): string | undefined {
  const raw = request.headers['authorization-upstream'];
  const header = Array.isArray(raw) ? raw[0] : raw;
  if (!header?.trim()) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header.trim());
  if (match) return match[1];
  const bare = header.trim();
  // `Bearer` alone is the scheme without its token, not a bare token.
  if (/^bearer$/i.test(bare)) return undefined;
  return /^\S+$/.test(bare) ? bare : undefined;
}

export function requireUpstreamToken(request: FastifyRequest): string {
  const token = upstreamToken(request);
  if (!token) throw errors.upstreamTokenMissing();
  return token;
}
