import { randomUUID } from 'node:crypto';
import { createSigner, createVerifier } from 'fast-jwt';
import type { Clock } from '../clock.js';

export interface Claims {
  sub: string;
  username: string;
  iat: number;
  exp: number;
  orig_iat: number;
  jti: string;
  /**
   * The user's session generation when the first token of the session was issued (kept
   * across refresh): once the user's differs (password changed or reset), the token is
   * refused. Tokens issued before the claim existed have none: read as 0.
   */
  gen: number;
}

/** The user a token is issued to: its session generation comes from the user row. */
export interface TokenUser {
  id: number;
  username: string;
  sessionGeneration: number;
}

export type TokenProblem = 'invalid' | 'expired';

export class TokenError extends Error {
  constructor(readonly problem: TokenProblem) {
    super(problem === 'expired' ? 'Signature has expired.' : 'Error decoding signature.');
  }
}

/**
 * Access tokens of docs/http-contract.md: HS256 JWTs with sub, username, iat, exp, orig_iat,
 * jti and gen.
 * Expiry is checked against the injected clock, not the library's, so tests can move time.
 */
export class TokenService {
  private readonly sign: (payload: Record<string, unknown>) => string;
  private readonly decode: (token: string) => Record<string, unknown>;

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
    private readonly refreshWindowSeconds: number,
    private readonly clock: Clock,
  ) {
    this.sign = createSigner({ key: secret, algorithm: 'HS256' });
    this.decode = createVerifier({
      key: secret,
      algorithms: ['HS256'],
      ignoreExpiration: true,
      ignoreNotBefore: true,
      cache: 1000,
    });
  }

  private nowSeconds(): number {
    return Math.floor(this.clock.nowMicros() / 1_000_000);
  }

  issue(user: TokenUser, origIat?: number): string {
    const iat = this.nowSeconds();
    const claims: Claims = {
      sub: String(user.id),
      username: user.username,
      iat,
      exp: iat + this.ttlSeconds,
      orig_iat: origIat ?? iat,
      jti: randomUUID(),
      gen: user.sessionGeneration,
    };
    return this.sign({ ...claims });
  }

  /**
   * The claims of a valid, unexpired token; TokenError otherwise. Signed claims are checked
   * as closely as a request's: `sub` must be a user id the database can hold, written as
   * `issue` writes it, and the times finite numbers (JSON's 1e309 reads as Infinity).
   */
  verify(token: string): Claims {
    let payload: Record<string, unknown>;
    try {
      payload = this.decode(token);
    } catch {
      throw new TokenError('invalid');
    }
    if (
      !payload ||
      typeof payload !== 'object' ||
      !isUserId(payload.sub) ||
      typeof payload.username !== 'string' ||
      !Number.isFinite(payload.exp) ||
      !Number.isFinite(payload.orig_iat) ||
      (payload.gen !== undefined && !isGeneration(payload.gen))
    ) {
      throw new TokenError('invalid');
    }
    if ((payload.exp as number) <= this.nowSeconds()) throw new TokenError('expired');
    return { ...payload, gen: payload.gen ?? 0 } as unknown as Claims;
  }

  /**
   * A new token with a new exp and the same orig_iat, for the user `findUser` still finds
   * (by the token's `sub`), in the same session (generation). TokenError for a token that
   * does not verify; 'unknown_user' when the user is gone; 'session_ended' when the user's
   * sessions were ended since (password changed or reset); 'window_passed' past the refresh
   * window. The order of the checks is djangorestframework-jwt's: signature and expiry, then
   * the user, then the window (the session's end comes with the user, from the same row).
   */
  async refresh(
    token: string,
    findUser: (id: number) => Promise<TokenUser | undefined>,
  ): Promise<string | 'unknown_user' | 'session_ended' | 'window_passed'> {
    const claims = this.verify(token);
    const user = await findUser(Number(claims.sub));
    // An erased user keeps the row under a tombstone name: the token names someone gone.
    if (!user || user.username !== claims.username) return 'unknown_user';
    if (user.sessionGeneration !== claims.gen) return 'session_ended';
    if (this.nowSeconds() > claims.orig_iat + this.refreshWindowSeconds) return 'window_passed';
    return this.issue(user, claims.orig_iat);
  }
}

/** The largest user id: users.id is a PostgreSQL integer (serial). */
const MAX_USER_ID = 2 ** 31 - 1;

/** A session generation as `issue` writes it: users.session_generation, an integer >= 0. */
function isGeneration(gen: unknown): gen is number {
  return Number.isInteger(gen) && (gen as number) >= 0 && (gen as number) <= MAX_USER_ID;
}

/** A user id as `issue` writes it: decimal digits, no sign or leading zero, in range. */
function isUserId(sub: unknown): sub is string {
  return typeof sub === 'string' && /^[1-9][0-9]{0,9}$/.test(sub) && Number(sub) <= MAX_USER_ID;
}
