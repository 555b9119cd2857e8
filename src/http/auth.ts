import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TokenError, type TokenService } from '../auth/tokens.js';
import type { Database } from '../db/client.js';
import { statement } from '../db/statement.js';
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
  }
  interface FastifyRequest {
    /** Set on every authenticated route; null on public ones. */
    authUser: AuthUser | null;
  }
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
 * The caller, read on every authenticated request (a prepared statement), with the session
 * generation its token must carry: ending sessions costs the request no other look-up.
 */
export const USER_BY_ID = statement(
  `select id, username, email, first_name as "firstName",
  last_name as "lastName", telephone, reference, is_staff as "isStaff", is_admin as "isAdmin",
  session_generation as "sessionGeneration"
  from users where id = $1`,
  // Behind a pooler (migration 0019: the same text, its plan kept per server connection).
  { pooled: 'select * from auth_user($1)' },
);

export function installAuth(app: FastifyInstance, tokens: TokenService, database: Database): void {
  app.decorateRequest('authUser', null);
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
    const [user] = await database.run<AuthUser>(USER_BY_ID, [Number(claims.sub)]);
    // A user's username never changes but when the user is erased (`users erase`, which
    // keeps the row under a tombstone name): tokens issued before it name someone gone.
    if (!user || user.username !== claims.username) throw errors.tokenNotValid('User not found.');
    // The password was changed or reset since the token's session began (src/protections/sessions.ts).
    if (user.sessionGeneration !== claims.gen) throw errors.tokenNotValid(SESSION_ENDED);
    if (level === 'staff' && !isStaff(user)) throw errors.permissionDenied();
    if (level === 'admin' && !user.isAdmin) throw errors.permissionDenied();
    request.authUser = user;
  });
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
