import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SimRoute } from '../../erp-simulator/faults.js';
import { PASSWORDS, type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { addSimUser, restoreJobsDone } from '../helpers/fixtures.js';

let ctx: TestContext;
let anna: Session;
let bruno: Session;
let staff: Session;
let admin: Session;

beforeAll(async () => {
  ctx = await startTestApp();
  // An admin who is not also staff, with no telephone number: a user the demo data lacks.
  addSimUser(ctx, 'dora', { like: 'carla', email: 'dora@example.com', telephone: '' });
  anna = await ctx.login('anna');
  bruno = await ctx.login('bruno');
  staff = await ctx.loginAs('carla', 'staff');
  admin = await ctx.loginAs('dora', 'admin');
});
afterAll(() => ctx?.close());
afterEach(() => ctx.sim.clearFaults());

/** The session of a new login (`answer`: its body) of the same user. */
const renewed = (session: Session, answer: { token: string; upstream_token: string }) => ({
  ...session,
  token: answer.token,
  upstreamToken: answer.upstream_token,
});

const simUser = (username: string) => ctx.sim.data.users.find((u) => u.username === username)!;
const callsOf = (route: SimRoute) => ctx.sim.calls.filter((c) => c.route === route);

function changePassword(session: Session | undefined, body: unknown, upstream?: string | null) {
  const headers: Record<string, string> = {};
  const token = upstream === undefined ? session?.upstreamToken : upstream;
  if (token) headers['authorization-upstream'] = `Bearer ${token}`;
  return ctx.request('PATCH', '/api/v1/users/me/change-password/', {
    token: session?.token,
    body,
    headers,
  });
}

function shipments(session: Session | undefined, upstream?: string | null) {
  const headers: Record<string, string> = {};
  if (upstream) headers['authorization-upstream'] = `Bearer ${upstream}`;
  return ctx.request('GET', '/api/v1/users/me/shipments/', { token: session?.token, headers });
}

const SHIPMENT_FIELDS = [
  'CSTrURL',
  'PortalTrURL',
  'RefNo',
  'SId',
  'SKey',
  'SService',
  'SStatusDTime',
  'SStatusTxt',
  'YourRefNo',
];

describe('PATCH users/me/change-password/', () => {
  it('changes the password upstream with the caller\'s upstream token: 200 {"detail"}', async () => {
    const answer = await changePassword(anna, {
      password: PASSWORDS.anna,
      new_password: 'anna-new-pass-1',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ detail: 'Password changed.' });
    expect(simUser('anna').password).toBe('anna-new-pass-1');
    expect(callsOf('me.password').at(-1)!.authorization).toBe(`Bearer ${anna.upstreamToken}`);
    // The new password logs in; then it is changed back for the other tests.
    const login = await ctx.request('POST', '/api/v1/auth/jwt/token/', {
      body: { username: 'anna', password: 'anna-new-pass-1' },
    });
    expect(login.status).toBe(200);
    // The change ended anna's sessions (test/auth/sessions.test.ts): the new one changes it back.
    expect((await ctx.request('GET', '/api/v1/users/me/', { token: anna.token })).status).toBe(401);
    const back = await changePassword(renewed(anna, login.body), {
      password: 'anna-new-pass-1',
      new_password: PASSWORDS.anna,
    });
    expect(back.status).toBe(200);
    anna = await ctx.login('anna');
  });

  it('a new password refused by upstream policy is 400 on new_password', async () => {
    const spy = vi
      .spyOn(ctx.deps.upstream, 'changePassword')
      .mockResolvedValueOnce('new_password_refused');
    try {
      const answer = await changePassword(anna, {
        password: PASSWORDS.anna,
        new_password: 'fine-by-us-1',
      });
      expect(answer.status).toBe(400);
      expect(Object.keys(answer.body)).toEqual(['new_password']);
    } finally {
      spy.mockRestore();
    }
  });

  it('a wrong current password is 400 on password, and nothing changes', async () => {
    const answer = await changePassword(anna, { password: 'wrong', new_password: 'whatever-123' });
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body)).toEqual(['password']);
    expect(answer.body.password).toHaveLength(1);
    expect(simUser('anna').password).toBe(PASSWORDS.anna);
  });

  it('new_password takes 8 to 128 characters: 400 on new_password otherwise, upstream not asked', async () => {
    const before = callsOf('me.password').length;
    for (const newPassword of ['short12', 'x'.repeat(129)]) {
      const answer = await changePassword(anna, {
        password: PASSWORDS.anna,
        new_password: newPassword,
      });
      expect(answer.status).toBe(400);
      expect(Object.keys(answer.body)).toEqual(['new_password']);
    }
    const missing = await changePassword(anna, {});
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      password: ['This field is required.'],
      new_password: ['This field is required.'],
    });
    expect(callsOf('me.password').length).toBe(before);
  });

  it('without Authorization-Upstream: 400 upstream_token_missing', async () => {
    const answer = await changePassword(
      anna,
      { password: PASSWORDS.anna, new_password: 'whatever-123' },
      null,
    );
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('upstream_token_missing');
  });

  it('an upstream token upstream refuses, or one of another user: 401 upstream_token_not_valid', async () => {
    const cases: [string, string][] = [
      ['not-a-valid-token', PASSWORDS.anna],
      [bruno.upstreamToken, PASSWORDS.bruno],
    ];
    for (const [upstream, password] of cases) {
      const answer = await changePassword(
        anna,
        { password, new_password: 'whatever-123' },
        upstream,
      );
      expect(answer.status).toBe(401);
      expect(answer.body.code).toBe('upstream_token_not_valid');
    }
    expect(simUser('anna').password).toBe(PASSWORDS.anna);
    expect(simUser('bruno').password).toBe(PASSWORDS.bruno);
  });

  it('upstream unavailable: 503 upstream_unavailable', async () => {
    ctx.sim.inject('me.password', { type: 'unavailable' });
    const answer = await changePassword(anna, {
      password: PASSWORDS.anna,
      new_password: 'whatever-123',
    });
    expect(answer.status).toBe(503);
    expect(answer.body.code).toBe('upstream_unavailable');
  });

  it('permission matrix: anonymous 401; every user changes their own password', async () => {
    const anonymous = await ctx.request('PATCH', '/api/v1/users/me/change-password/', {
      body: { password: 'x', new_password: 'whatever-123' },
      headers: { 'authorization-upstream': `Bearer ${anna.upstreamToken}` },
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('not_authenticated');
    const cells: [string, Session][] = [
      ['customer', anna],
      ['another customer', bruno],
      ['staff', staff],
      ['admin', admin],
    ];
    for (const [role, session] of cells) {
      const old = PASSWORDS[session.username];
      const changed = await changePassword(session, {
        password: old,
        new_password: `${session.username}-changed-1`,
      });
      expect(changed.status, role).toBe(200);
      expect(simUser(session.username).password, role).toBe(`${session.username}-changed-1`);
      const login = await ctx.request('POST', '/api/v1/auth/jwt/token/', {
        body: { username: session.username, password: `${session.username}-changed-1` },
      });
      const back = await changePassword(renewed(session, login.body), {
        password: `${session.username}-changed-1`,
        new_password: old,
      });
      expect(back.status, role).toBe(200);
    }
    // Each change ended that user's sessions: the other tests log in again (roles are kept).
    [anna, bruno, staff, admin] = await Promise.all(
      ['anna', 'bruno', 'carla', 'dora'].map((name) => ctx.login(name)),
    );
  });
});

describe('GET users/me/shipments/', () => {
  it('returns the shipments of the telephone number in the upstream profile, with exactly the interface fields', async () => {
    const before = callsOf('shipments').length;
    const answer = await shipments(anna, anna.upstreamToken);
    expect(answer.status).toBe(200);
    const expected = ctx.sim.data.shipments['+4915112345678'];
    expect(answer.body).toHaveLength(expected.length);
    expect(answer.body.map((s: { RefNo: string }) => s.RefNo)).toEqual(
      expected.map((s) => s.RefNo),
    );
    for (const shipment of answer.body)
      expect(Object.keys(shipment).sort()).toEqual(SHIPMENT_FIELDS);
    expect(answer.body[1].CSTrURL).toBeNull();
    // Looked up with the user's token, as categories/ does when the header is sent.
    const calls = callsOf('shipments').slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0].authorization).toBe(`Bearer ${anna.upstreamToken}`);
    expect(decodeURIComponent(calls[0].path)).toContain('telephone=+4915112345678');
  });

  it("asks upstream with the caller's token when Authorization-Upstream is sent, with the service account only without it", async () => {
    const serviceTokens = () =>
      new Set(
        callsOf('admin.user')
          .map((c) => c.authorization)
          .filter(Boolean),
      );
    // The service account's token, as the service sends it (a restore lookup uses it).
    await ctx.request('POST', '/api/v1/request-restore-code/', { body: { username: 'nobody' } });
    await restoreJobsDone(ctx); // the look-up runs after the answer
    expect(serviceTokens().size).toBeGreaterThan(0);

    let before = callsOf('shipments').length;
    const withHeader = await shipments(anna, anna.upstreamToken);
    expect(withHeader.status).toBe(200);
    let calls = callsOf('shipments').slice(before);
    expect(calls.map((c) => c.authorization)).toEqual([`Bearer ${anna.upstreamToken}`]);

    before = callsOf('shipments').length;
    const without = await shipments(anna);
    expect(without.status).toBe(200);
    expect(without.body).toEqual(withHeader.body);
    calls = callsOf('shipments').slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0].authorization).not.toBe(`Bearer ${anna.upstreamToken}`);
    expect(serviceTokens().has(calls[0].authorization)).toBe(true);
  });

  it('an upstream token that upstream refuses on the shipments call itself: 401 upstream_token_not_valid', async () => {
    // The profile check passes; the token is revoked before shipments are asked for.
    ctx.sim.inject('shipments', { type: 'unauthorized' });
    const answer = await shipments(anna, anna.upstreamToken);
    expect(answer.status).toBe(401);
    expect(answer.body.code).toBe('upstream_token_not_valid');
  });

  it('with the token the upstream profile decides; without it, the number stored at login', async () => {
    simUser('anna').telephone = '+4917098765432'; // bruno's number, changed upstream since login
    try {
      const live = await shipments(anna, anna.upstreamToken);
      expect(live.body.map((s: { RefNo: string }) => s.RefNo)).toEqual(
        ctx.sim.data.shipments['+4917098765432'].map((s) => s.RefNo),
      );
      const stored = await shipments(anna);
      expect(stored.status).toBe(200);
      expect(stored.body.map((s: { RefNo: string }) => s.RefNo)).toEqual(
        ctx.sim.data.shipments['+4915112345678'].map((s) => s.RefNo),
      );
    } finally {
      simUser('anna').telephone = '+4915112345678';
    }
  });

  it('no telephone number: 200 [] without asking for shipments', async () => {
    const before = callsOf('shipments').length;
    for (const upstream of [admin.upstreamToken, null]) {
      const answer = await shipments(admin, upstream);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual([]);
    }
    expect(callsOf('shipments').length).toBe(before);
  });

  it('fields upstream adds are not passed on; an answer of the wrong shape is 502', async () => {
    const list = ctx.sim.data.shipments['+4915112345678'] as unknown as Record<string, unknown>[];
    list[0].Internal = 'secret';
    try {
      const answer = await shipments(anna, anna.upstreamToken);
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.body[0]).sort()).toEqual(SHIPMENT_FIELDS);
    } finally {
      delete list[0].Internal;
    }
    const refNo = list[0].RefNo;
    delete list[0].RefNo;
    try {
      const answer = await shipments(anna, anna.upstreamToken);
      expect(answer.status).toBe(502);
      expect(answer.body.code).toBe('upstream_error');
    } finally {
      list[0].RefNo = refNo;
    }
  });

  it('an upstream token upstream refuses, or one of another user: 401 upstream_token_not_valid', async () => {
    for (const upstream of ['not-a-valid-token', bruno.upstreamToken]) {
      const answer = await shipments(anna, upstream);
      expect(answer.status).toBe(401);
      expect(answer.body.code).toBe('upstream_token_not_valid');
    }
  });

  it('upstream timing out: 504', async () => {
    ctx.sim.inject('shipments', { type: 'delay', ms: 5000 });
    const answer = await shipments(anna);
    expect(answer.status).toBe(504);
    expect(answer.body.code).toBe('upstream_timeout');
  });

  it('permission matrix: anonymous 401; each user sees the shipments of their own number', async () => {
    const anonymous = await shipments(undefined, anna.upstreamToken);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('not_authenticated');
    const cells: [string, Session, string | undefined][] = [
      ['customer', anna, '+4915112345678'],
      ['another customer', bruno, '+4917098765432'],
      ['staff', staff, '+4916055511122'],
      ['admin', admin, undefined],
    ];
    for (const [role, session, telephone] of cells) {
      const expected = (telephone && ctx.sim.data.shipments[telephone]) || [];
      for (const upstream of [session.upstreamToken, null]) {
        const answer = await shipments(session, upstream);
        expect(answer.status, role).toBe(200);
        expect(
          answer.body.map((s: { RefNo: string }) => s.RefNo),
          role,
        ).toEqual(expected.map((s) => s.RefNo));
      }
    }
  });
});
