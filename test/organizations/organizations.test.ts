import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SimUser } from '../../erp-simulator/data.js';
import type { Fault } from '../../erp-simulator/faults.js';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { addSimUser } from '../helpers/fixtures.js';

let ctx: TestContext;
let anna: Session;
let bruno: Session;
let staff: Session;
let admin: Session;
let emil: Session;

/** A user the demo data lacks (a bare customer record) with these memberships. */
function addMember(username: string, memberships: SimUser['memberships']) {
  addSimUser(ctx, username, {
    role: 'customer',
    description: 'test user',
    email: `${username}@example.com`,
    first_name: username,
    last_name: 'Test',
    telephone: '',
    reference: null,
    discount_basis_points: 0,
    memberships,
  });
}

/** emil is a member of 25 organizations; ORG-5010 and ORG-5011 share a name. */
const EMIL_ORGS = Array.from({ length: 25 }, (_, i) => {
  const n = i + 1;
  return {
    organization_id: `ORG-50${String(n).padStart(2, '0')}`,
    code: `5000${String(n).padStart(2, '0')}`,
    name: `Kunde ${String(n === 11 ? 16 : 26 - n).padStart(2, '0')}`,
    parent_code: '',
    has_unlimited_credit: false,
  };
});

beforeAll(async () => {
  ctx = await startTestApp();
  ctx.sim.data.organizations.push(...EMIL_ORGS);
  addMember('dora', [{ organization_id: 'ORG-1004', credit: false }]);
  addMember(
    'emil',
    EMIL_ORGS.map((o) => ({ organization_id: o.organization_id, credit: true })),
  );
  anna = await ctx.login('anna');
  bruno = await ctx.login('bruno');
  staff = await ctx.loginAs('carla', 'staff');
  admin = await ctx.loginAs('dora', 'admin');
  emil = await ctx.login('emil');
});
afterAll(() => ctx?.close());
afterEach(() => {
  ctx.sim.clearFaults();
  vi.restoreAllMocks();
});

const list = (session: Session, query = '') =>
  ctx.request('GET', `/api/v1/organizations/${query}`, { token: session.token });
const favorite = (session: Session | undefined, org: string, action = 'favorite') =>
  ctx.request('POST', `/api/v1/organizations/${org}/${action}/`, { token: session?.token });
const creditCheck = (session: Session | undefined, org: string, upstream?: string) =>
  ctx.request('GET', `/api/v1/credit-check/${org}/`, {
    token: session?.token,
    headers:
      upstream === undefined
        ? {}
        : { 'authorization-upstream': upstream === '' ? '' : `Bearer ${upstream}` },
  });
const ids = (answer: { body: { results: { organization_id: string }[] } }) =>
  answer.body.results.map((o) => o.organization_id);
const creditCalls = () => ctx.sim.calls.filter((c) => c.route === 'credit').length;

const NOT_FOUND = { detail: 'Not found.', code: 'not_found' };

describe('GET organizations/', () => {
  it("lists the user's organizations as Organization objects, ordered by name", async () => {
    const answer = await list(anna);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      count: 2,
      next: null,
      previous: null,
      results: [
        {
          id: expect.any(Number),
          code: '100100',
          created: '2026-03-02T09:00:00.000000Z',
          name: 'Hoffmann Haustechnik GmbH',
          organization_id: 'ORG-1001',
          parent_code: '',
        },
        {
          id: expect.any(Number),
          code: '100110',
          created: '2026-03-02T09:00:00.000000Z',
          name: 'Hoffmann Haustechnik GmbH - Site Nord',
          organization_id: 'ORG-1002',
          parent_code: '100100',
        },
      ],
    });
  });

  it('shows only memberships: each customer sees their own', async () => {
    expect(ids(await list(bruno))).toEqual(['ORG-1003']);
  });

  it('staff and admins also see only their own memberships', async () => {
    expect(ids(await list(staff))).toEqual(['ORG-1004']);
    expect(ids(await list(admin))).toEqual(['ORG-1004']);
  });

  it('orders by name, then id, across pages that keep the other query parameters', async () => {
    const expected = [...EMIL_ORGS]
      .sort((a, b) =>
        a.name === b.name
          ? a.organization_id.localeCompare(b.organization_id)
          : a.name < b.name
            ? -1
            : 1,
      )
      .map((o) => o.organization_id);
    // The shared name: the lower id (the one logged in first) comes first.
    expect(expected.indexOf('ORG-5010')).toBe(expected.indexOf('ORG-5011') - 1);

    const first = await list(emil, '?favorites=False&page_size=10');
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(25);
    expect(first.body.previous).toBeNull();
    const next = new URL(first.body.next);
    expect(next.pathname).toBe('/api/v1/organizations/');
    expect(Object.fromEntries(next.searchParams)).toEqual({
      favorites: 'False',
      page_size: '10',
      page: '2',
    });
    const second = await list(emil, '?favorites=False&page_size=10&page=2');
    const third = await list(emil, '?favorites=False&page_size=10&page=3');
    expect(third.body.next).toBeNull();
    expect([...ids(first), ...ids(second), ...ids(third)]).toEqual(expected);

    const past = await list(emil, '?page_size=10&page=4');
    expect(past.status).toBe(404);
    expect(past.body).toEqual({ detail: 'Invalid page.', code: 'not_found' });
  });

  it('rejects a favorites value that is not a boolean (400 on favorites)', async () => {
    const answer = await list(anna, '?favorites=maybe');
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body)).toEqual(['favorites']);
  });
});

describe('favourites', () => {
  it('favorite/ and unfavorite/ answer 200 with no body, and favorites filters on them', async () => {
    const none = await list(anna, '?favorites=True');
    expect(none.body.count).toBe(0);

    const added = await favorite(anna, 'ORG-1002');
    expect(added.status).toBe(200);
    expect(added.text).toBe('');
    expect(ids(await list(anna, '?favorites=True'))).toEqual(['ORG-1002']);
    expect(ids(await list(anna, '?favorites=true'))).toEqual(['ORG-1002']);
    expect(ids(await list(anna, '?favorites=1'))).toEqual(['ORG-1002']);
    expect(ids(await list(anna, '?favorites=False'))).toEqual(['ORG-1001']);
    expect(ids(await list(anna, '?favorites=0'))).toEqual(['ORG-1001']);
    expect(ids(await list(anna))).toEqual(['ORG-1001', 'ORG-1002']);

    const removed = await favorite(anna, 'ORG-1002', 'unfavorite');
    expect(removed.status).toBe(200);
    expect(removed.text).toBe('');
    expect((await list(anna, '?favorites=True')).body.count).toBe(0);
  });

  it('is idempotent both ways', async () => {
    expect((await favorite(anna, 'ORG-1001')).status).toBe(200);
    expect((await favorite(anna, 'ORG-1001')).status).toBe(200);
    expect(ids(await list(anna, '?favorites=True'))).toEqual(['ORG-1001']);
    expect((await favorite(anna, 'ORG-1001', 'unfavorite')).status).toBe(200);
    expect((await favorite(anna, 'ORG-1001', 'unfavorite')).status).toBe(200);
    expect((await list(anna, '?favorites=True')).body.count).toBe(0);
  });

  it('accepts an empty JSON body', async () => {
    const answer = await ctx.request('POST', '/api/v1/organizations/ORG-1001/favorite/', {
      token: anna.token,
      body: {},
    });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('');
    const empty = await ctx.request('POST', '/api/v1/organizations/ORG-1001/unfavorite/', {
      token: anna.token,
      raw: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(empty.status).toBe(200);
    expect((await list(anna, '?favorites=True')).body.count).toBe(0);
  });

  it('are per user: two members of one organization favourite it independently', async () => {
    expect((await favorite(staff, 'ORG-1004')).status).toBe(200);
    expect(ids(await list(staff, '?favorites=True'))).toEqual(['ORG-1004']);
    expect((await list(admin, '?favorites=True')).body.count).toBe(0);
    expect(ids(await list(admin, '?favorites=False'))).toEqual(['ORG-1004']);
    await favorite(staff, 'ORG-1004', 'unfavorite');
  });

  it('survive a new login', async () => {
    await favorite(bruno, 'ORG-1003');
    const again = await ctx.login('bruno');
    expect(ids(await list(again, '?favorites=True'))).toEqual(['ORG-1003']);
    await favorite(again, 'ORG-1003', 'unfavorite');
  });

  it('of an organization the user is not a member of, or an unknown one, are 404', async () => {
    for (const action of ['favorite', 'unfavorite']) {
      for (const org of ['ORG-1003', 'ORG-9999']) {
        const answer = await favorite(anna, org, action);
        expect(answer.status).toBe(404);
        expect(answer.body).toEqual(NOT_FOUND);
      }
    }
    // Nothing changed for the member.
    expect((await list(bruno, '?favorites=True')).body.count).toBe(0);
  });

  it('answers 405 to GET', async () => {
    const answer = await ctx.request('GET', '/api/v1/organizations/ORG-1001/favorite/', {
      token: anna.token,
    });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toContain('POST');
  });
});

describe('GET credit-check/{organization_id}/', () => {
  it("answers the user's credit status, asked upstream with the user's token", async () => {
    const yes = await creditCheck(anna, 'ORG-1001', anna.upstreamToken);
    expect(yes.status).toBe(200);
    expect(yes.body).toEqual({ credit: true });
    const call = ctx.sim.calls.at(-1)!;
    expect(call.route).toBe('credit');
    expect(call.path).toBe('/organizations/ORG-1001/credit');
    expect(call.authorization).toBe(`Bearer ${anna.upstreamToken}`);

    expect((await creditCheck(anna, 'ORG-1002', anna.upstreamToken)).body).toEqual({
      credit: false,
    });
    expect((await creditCheck(bruno, 'ORG-1003', bruno.upstreamToken)).body).toEqual({
      credit: true,
    });
  });

  it('accepts the bare upstream token without the Bearer prefix', async () => {
    const answer = await ctx.request('GET', '/api/v1/credit-check/ORG-1001/', {
      token: anna.token,
      headers: { 'authorization-upstream': anna.upstreamToken },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ credit: true });
  });

  it('needs Authorization-Upstream: 400 upstream_token_missing', async () => {
    const before = creditCalls();
    for (const header of [undefined, '']) {
      const answer = await creditCheck(anna, 'ORG-1001', header);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ detail: expect.any(String), code: 'upstream_token_missing' });
    }
    expect(creditCalls()).toBe(before);
  });

  it('is 404 without asking upstream for an organization the user is not a member of', async () => {
    const before = creditCalls();
    for (const org of ['ORG-1003', 'ORG-9999']) {
      const answer = await creditCheck(anna, org, anna.upstreamToken);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual(NOT_FOUND);
    }
    expect(creditCalls()).toBe(before);
  });

  it('is 404 when upstream does not know the membership', async () => {
    const user = ctx.sim.data.users.find((u) => u.username === 'anna')!;
    const kept = user.memberships;
    user.memberships = kept.filter((m) => m.organization_id !== 'ORG-1002');
    try {
      const answer = await creditCheck(anna, 'ORG-1002', anna.upstreamToken);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual(NOT_FOUND);
    } finally {
      user.memberships = kept;
    }
  });

  it('is 401 upstream_token_not_valid when upstream refuses the token', async () => {
    const bogus = await creditCheck(anna, 'ORG-1001', 'not-a-real-token');
    expect(bogus.status).toBe(401);
    expect(bogus.body).toEqual({ detail: expect.any(String), code: 'upstream_token_not_valid' });
    ctx.sim.inject('credit', { type: 'unauthorized' });
    const refused = await creditCheck(anna, 'ORG-1001', anna.upstreamToken);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('upstream_token_not_valid');
  });

  const faults: [Fault, number, string][] = [
    [{ type: 'unavailable' }, 503, 'upstream_unavailable'],
    [{ type: 'html500' }, 502, 'upstream_error'],
    [{ type: 'malformed' }, 502, 'upstream_error'],
    [{ type: 'reset' }, 502, 'upstream_error'],
  ];
  it.each(faults)('maps the upstream fault %o to %i %s', async (fault, status, code) => {
    ctx.sim.inject('credit', fault);
    const answer = await creditCheck(anna, 'ORG-1001', anna.upstreamToken);
    expect(answer.status).toBe(status);
    expect(answer.body).toEqual({ detail: expect.any(String), code });
    expect(answer.text).not.toContain(anna.upstreamToken);
  });

  it('is 502 when upstream answers without a boolean credit', async () => {
    ctx.sim.inject('credit', { type: 'answer', body: { credit: 'yes' } });
    const answer = await creditCheck(anna, 'ORG-1001', anna.upstreamToken);
    expect(answer.status).toBe(502);
    expect(answer.body.code).toBe('upstream_error');
  });
});

describe('permissions', () => {
  type Who = 'anonymous' | 'customer' | 'another customer' | 'staff' | 'admin';
  const session = (who: Who): Session | undefined =>
    ({
      anonymous: undefined,
      customer: anna,
      'another customer': bruno,
      staff,
      admin,
    })[who];

  // Every cell acts on anna's ORG-1001: only anna is a member.
  const matrix: [string, Who, number][] = [];
  for (const endpoint of ['list', 'favorite', 'unfavorite', 'credit-check']) {
    matrix.push(
      [endpoint, 'anonymous', 401],
      [endpoint, 'customer', 200],
      [endpoint, 'another customer', endpoint === 'list' ? 200 : 404],
      [endpoint, 'staff', endpoint === 'list' ? 200 : 404],
      [endpoint, 'admin', endpoint === 'list' ? 200 : 404],
    );
  }

  it.each(matrix)('%s as %s: %i', async (endpoint, who, status) => {
    const user = session(who);
    let answer: Awaited<ReturnType<typeof list>>;
    if (endpoint === 'list') {
      answer = await ctx.request('GET', '/api/v1/organizations/', { token: user?.token });
      if (status === 200) {
        // Whoever asks, only their own memberships: ORG-1001 only for anna.
        expect(ids(answer).includes('ORG-1001')).toBe(who === 'customer');
      }
    } else if (endpoint === 'credit-check') {
      answer = await creditCheck(user, 'ORG-1001', user?.upstreamToken ?? anna.upstreamToken);
      if (status === 200) expect(answer.body).toEqual({ credit: true });
    } else {
      answer = await favorite(user, 'ORG-1001', endpoint);
    }
    expect(answer.status).toBe(status);
    if (status === 401) {
      expect(answer.body).toEqual({ detail: expect.any(String), code: 'not_authenticated' });
    }
    if (status === 404) expect(answer.body).toEqual(NOT_FOUND);
  });

  it('staff and admins use their own memberships like customers', async () => {
    for (const user of [staff, admin]) {
      expect((await favorite(user, 'ORG-1004')).status).toBe(200);
      expect((await favorite(user, 'ORG-1004', 'unfavorite')).status).toBe(200);
      const credit = await creditCheck(user, 'ORG-1004', user.upstreamToken);
      expect(credit.status).toBe(200);
      // carla has credit in ORG-1004 upstream, dora has not.
      expect(credit.body).toEqual({ credit: user === staff });
    }
  });
});
