import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberships, organizations, users } from '../../src/db/schema.js';
import { PASSWORDS, startTestApp, type TestContext } from '../helpers/app.js';
import { addSimUser, organizationsOf } from '../helpers/fixtures.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp({ env: { JWT_TTL_SECONDS: '600', JWT_REFRESH_WINDOW_SECONDS: '3600' } });
});
afterAll(() => ctx?.close());

const TOKEN = '/api/v1/auth/jwt/token/';
const REFRESH = '/api/v1/auth/jwt/refresh/';

function claims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
}

describe('POST auth/jwt/token/', () => {
  it('logs in through upstream and answers the three tokens', async () => {
    const answer = await ctx.request('POST', TOKEN, {
      body: { username: 'anna', password: PASSWORDS.anna },
    });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual([
      'token',
      'upstream_refresh_token',
      'upstream_token',
    ]);
    const header = JSON.parse(Buffer.from(answer.body.token.split('.')[0], 'base64url').toString());
    expect(header.alg).toBe('HS256');
    const c = claims(answer.body.token);
    expect(Object.keys(c).sort()).toEqual([
      'exp',
      'gen',
      'iat',
      'jti',
      'orig_iat',
      'sub',
      'username',
    ]);
    // The session generation (src/protections/sessions.ts): no password change yet.
    expect(c.gen).toBe(0);
    expect(c.exp).toBe((c.iat as number) + 600);
    expect(c.orig_iat).toBe(c.iat);
    expect(c.username).toBe('anna');
    // The upstream token works upstream.
    const me = await fetch(`${ctx.sim.url}/me`, {
      headers: { authorization: `Bearer ${answer.body.upstream_token}` },
    });
    expect(me.status).toBe(200);
  });

  it('creates the local user and memberships from the upstream profile', async () => {
    const session = await ctx.login('anna');
    const [user] = await ctx.database.db.select().from(users).where(eq(users.id, session.userId));
    const profile = ctx.sim.data.users.find((u) => u.username === 'anna')!;
    expect(user.email).toBe(profile.email);
    expect(user.firstName).toBe(profile.first_name);
    expect(user.lastName).toBe(profile.last_name);
    expect(user.telephone).toBe(profile.telephone);
    expect(user.reference).toBe(profile.reference);
    expect(await organizationsOf(ctx, session.userId)).toEqual(
      profile.memberships.map((m) => m.organization_id).sort(),
    );
  });

  it('refreshes the profile and memberships on the next login, keeping favourites', async () => {
    const session = await ctx.login('anna');
    const [kept, dropped] = await organizationsOf(ctx, session.userId);
    const [keptRow] = await ctx.database.db
      .select()
      .from(organizations)
      .where(eq(organizations.organizationId, kept));
    await ctx.database.db
      .update(memberships)
      .set({ favorite: true })
      .where(eq(memberships.organizationId, keptRow.id));
    const profile = ctx.sim.data.users.find((u) => u.username === 'anna')!;
    const before = structuredClone(profile);
    profile.first_name = 'Annika';
    profile.memberships = profile.memberships.filter((m) => m.organization_id !== dropped);
    try {
      await ctx.login('anna');
      const [user] = await ctx.database.db.select().from(users).where(eq(users.id, session.userId));
      expect(user.firstName).toBe('Annika');
      expect(await organizationsOf(ctx, session.userId)).toEqual([kept]);
      const [membership] = await ctx.database.db
        .select()
        .from(memberships)
        .where(eq(memberships.userId, session.userId));
      expect(membership.favorite).toBe(true);
    } finally {
      Object.assign(profile, before);
      await ctx.login('anna');
    }
  });

  it('answers 400 non_field_errors for wrong credentials', async () => {
    const answer = await ctx.request('POST', TOKEN, {
      body: { username: 'anna', password: 'wrong' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ non_field_errors: [expect.any(String)] });
    const unknown = await ctx.request('POST', TOKEN, {
      body: { username: 'nobody', password: 'x' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.non_field_errors).toHaveLength(1);
  });

  it('answers 400 per field for missing fields', async () => {
    const answer = await ctx.request('POST', TOKEN, { body: { username: 'anna' } });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ password: ['This field is required.'] });
  });

  it('maps an unavailable upstream on login to 503', async () => {
    ctx.sim.inject('auth.token', { type: 'unavailable' });
    const answer = await ctx.request('POST', TOKEN, {
      body: { username: 'anna', password: PASSWORDS.anna },
    });
    expect(answer.status).toBe(503);
    expect(answer.body.code).toBe('upstream_unavailable');
  });
});

describe('POST auth/jwt/refresh/', () => {
  it('returns a new token with a new exp and the same orig_iat', async () => {
    const session = await ctx.login('bruno');
    const first = claims(session.token);
    ctx.clock.advance(300);
    const answer = await ctx.request('POST', REFRESH, { body: { token: session.token } });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body)).toEqual(['token']);
    const second = claims(answer.body.token);
    expect(second.orig_iat).toBe(first.orig_iat);
    expect(second.exp).toBe((first.exp as number) + 300);
    expect(second.jti).not.toBe(first.jti);
    const carts = await ctx.request('GET', '/api/v1/carts/', { token: answer.body.token });
    expect(carts.status).toBe(200);
  });

  it('refuses an expired token and one past the refresh window with 400', async () => {
    const session = await ctx.login('bruno');
    // Keep refreshing within the TTL until the window (3600 s) is past.
    let token = session.token;
    for (let i = 0; i < 7; i++) {
      ctx.clock.advance(500);
      const answer = await ctx.request('POST', REFRESH, { body: { token } });
      expect(answer.status).toBe(200);
      token = answer.body.token;
    }
    ctx.clock.advance(500);
    const late = await ctx.request('POST', REFRESH, { body: { token } });
    expect(late.status).toBe(400);
    expect(late.body).toEqual({ non_field_errors: [expect.any(String)] });

    const fresh = await ctx.login('bruno');
    ctx.clock.advance(601);
    const expired = await ctx.request('POST', REFRESH, { body: { token: fresh.token } });
    expect(expired.status).toBe(400);
    expect(expired.body.non_field_errors).toEqual(['Signature has expired.']);
  });

  it("refuses the validly signed token of a user that no longer exists: 400 User doesn't exist.", async () => {
    // A user of its own: the row is deleted, the others' tests keep theirs.
    addSimUser(ctx, 'gone');
    const session = await ctx.login('gone');
    const before = await ctx.request('POST', REFRESH, { body: { token: session.token } });
    expect(before.status).toBe(200);
    await ctx.database.db.delete(users).where(eq(users.id, session.userId));
    const answer = await ctx.request('POST', REFRESH, { body: { token: session.token } });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ non_field_errors: ["User doesn't exist."] });
  });

  it('refuses garbage and a token signed with another secret with 400', async () => {
    const garbage = await ctx.request('POST', REFRESH, { body: { token: 'not-a-token' } });
    expect(garbage.status).toBe(400);
    expect(garbage.body.non_field_errors).toHaveLength(1);
    const session = await ctx.login('bruno');
    const [h, p] = session.token.split('.');
    const forged = await ctx.request('POST', REFRESH, { body: { token: `${h}.${p}.AAAA` } });
    expect(forged.status).toBe(400);
  });
});

describe('tokens on requests', () => {
  it('accepts Bearer and JWT prefixes', async () => {
    const session = await ctx.login('anna');
    for (const scheme of ['Bearer', 'JWT', 'bearer']) {
      const answer = await ctx.request('GET', '/api/v1/carts/', {
        headers: { authorization: `${scheme} ${session.token}` },
      });
      expect(answer.status, scheme).toBe(200);
    }
    const other = await ctx.request('GET', '/api/v1/carts/', {
      headers: { authorization: `Token ${session.token}` },
    });
    expect(other.status).toBe(401);
    expect(other.body.code).toBe('not_authenticated');
  });

  it('refuses an expired access token with 401 token_not_valid', async () => {
    const session = await ctx.login('anna');
    ctx.clock.advance(601);
    const answer = await ctx.request('GET', '/api/v1/carts/', { token: session.token });
    expect(answer.status).toBe(401);
    expect(answer.body.code).toBe('token_not_valid');
    expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="api"');
  });
});
