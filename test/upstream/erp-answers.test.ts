import { Writable } from 'node:stream';
import { asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { memberships, organizations, restoreCodes, users } from '../../src/db/schema.js';
import { PASSWORDS, type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { restoreJobsDone } from '../helpers/fixtures.js';

// biome-ignore lint/suspicious/noExplicitAny: answers and upstream data reshaped freely
type Loose = any;

/**
 * Every ERP answer the service stores is checked before use: a profile (`GET /me`) or an
 * admin user look-up of the wrong shape, or with text PostgreSQL cannot store, is a 502
 * `upstream_error`, logged, and changes nothing. Each malformed shape comes through the
 * simulator's faults (`answer`: 200 with Loose JSON body).
 */

let ctx: TestContext;
let anna: Session;
const logLines: { msg?: string; upstream?: { route?: string; cause?: string } }[] = [];

beforeAll(async () => {
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
      done();
    },
  });
  ctx = await startTestApp({ logStream });
  anna = await ctx.login('anna');
});
afterAll(() => ctx?.close());
afterEach(() => ctx.sim.clearFaults());

/** Anna as stored: her user row and her memberships with their organizations. */
async function annaAsStored() {
  const { db } = ctx.database;
  const [user] = await db.select().from(users).where(eq(users.id, anna.userId));
  const orgs = await db
    .select({ organization: organizations })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(eq(memberships.userId, anna.userId))
    .orderBy(asc(organizations.organizationId));
  return { user, orgs };
}

/** Anna's profile as the simulator answers it (fetched with her upstream token). */
async function annaProfile(): Promise<Loose> {
  const answer = await fetch(`${ctx.sim.url}/me`, {
    headers: { authorization: `Bearer ${anna.upstreamToken}` },
  });
  return answer.json();
}

const login = () =>
  ctx.request('POST', '/api/v1/auth/jwt/token/', {
    body: { username: 'anna', password: PASSWORDS.anna },
  });

const UPSTREAM_ERROR = { detail: expect.any(String), code: 'upstream_error' };

type Reshape = (profile: Loose) => unknown;
const malformedProfiles: [string, Reshape][] = [
  ['without username', ({ username: _, ...rest }) => rest],
  ['with an empty username', (p) => ({ ...p, username: '' })],
  ['with username null', (p) => ({ ...p, username: null })],
  ['with organizations as a string', (p) => ({ ...p, organizations: 'ACME' })],
  ['without organizations', ({ organizations: _, ...rest }) => rest],
  [
    'with an organization name that is an object',
    (p) => ({
      ...p,
      organizations: p.organizations.map((o: Loose, i: number) =>
        i === 0 ? { ...o, name: { x: 1 } } : o,
      ),
    }),
  ],
  [
    'with an organization lacking organization_id',
    (p) => ({
      ...p,
      organizations: p.organizations.map(({ organization_id: _, ...o }: Loose, i: number) =>
        i === 0 ? o : { organization_id: _, ...o },
      ),
    }),
  ],
  [
    'with organization_id ".." (later a path upstream)',
    (p) => ({ ...p, organizations: [{ ...p.organizations[0], organization_id: '..' }] }),
  ],
  ['with a NUL character in first_name', (p) => ({ ...p, first_name: 'An\u0000na' })],
  ['with a NUL character in the username', (p) => ({ ...p, username: 'anna\u0000' })],
  [
    'with a lone surrogate in an organization name',
    (p) => ({
      ...p,
      organizations: p.organizations.map((o: Loose) => ({ ...o, name: `Acme \ud800` })),
    }),
  ],
  ['with a lone surrogate in telephone', (p) => ({ ...p, telephone: '\udc00' })],
  ['with email a number', (p) => ({ ...p, email: 42 })],
  // Lengths: the service's own bounds for the same values (the columns are text).
  ['with a username of 151 characters', (p) => ({ ...p, username: 'a'.repeat(151) })],
  ['with an email of 255 characters', (p) => ({ ...p, email: `${'e'.repeat(243)}@example.com` })],
  ['with a last_name of 1,025 characters', (p) => ({ ...p, last_name: 'L'.repeat(1025) })],
  [
    'with an organization_id of 129 characters',
    (p) => ({ ...p, organizations: [{ ...p.organizations[0], organization_id: 'O'.repeat(129) }] }),
  ],
  [
    'with an organization name of 1,025 characters',
    (p) => ({ ...p, organizations: [{ ...p.organizations[0], name: 'N'.repeat(1025) }] }),
  ],
  // Control characters: no stored name, number or address holds one.
  ['with a line break in the email', (p) => ({ ...p, email: 'anna@example.com\r\nBcc: x@y.z' })],
  ['with a tab in last_name', (p) => ({ ...p, last_name: 'Berg\tX' })],
  ['with a C1 control (U+0085) in telephone', (p) => ({ ...p, telephone: '+49\u0085' })],
  ['with DEL in the reference', (p) => ({ ...p, reference: 'R\u007f' })],
  [
    'with an escape character in an organization code',
    (p) => ({ ...p, organizations: [{ ...p.organizations[0], code: '\u001b[31mX' }] }),
  ],
  ['that is an array', (p) => [p]],
];

describe('GET /me answers (login stores the profile)', () => {
  it('the demo profile is well-formed, has two memberships, and logs in', async () => {
    const profile = await annaProfile();
    expect(profile.organizations.length).toBeGreaterThanOrEqual(2);
    expect((await login()).status).toBe(200);
  });

  it.each(malformedProfiles)(
    'a profile %s: 502 upstream_error, logged, nothing changed',
    async (what, reshape) => {
      const before = await annaAsStored();
      const profile = reshape(await annaProfile());
      ctx.sim.inject('me', { type: 'answer', body: profile });
      const logged = logLines.length;
      const answer = await login();
      expect(answer.status, what).toBe(502);
      expect(answer.body).toEqual(UPSTREAM_ERROR);
      expect(await annaAsStored()).toEqual(before);
      const failure = logLines.slice(logged).find((l) => l.msg === 'upstream call failed');
      expect(failure?.upstream?.route).toBe('me');
      expect(failure?.upstream?.cause).toMatch(/^answer does not fit the contract/);
      // The log names where, never the value.
      expect(JSON.stringify(logLines.slice(logged))).not.toContain('Acme');
    },
  );

  it("the caller's own profile (users/me/shipments/ with Authorization-Upstream) is checked too", async () => {
    ctx.sim.inject('me', { type: 'answer', body: { ...(await annaProfile()), username: 7 } });
    const answer = await ctx.request('GET', '/api/v1/users/me/shipments/', {
      token: anna.token,
      headers: { 'authorization-upstream': `Bearer ${anna.upstreamToken}` },
    });
    expect(answer.status).toBe(502);
    expect(answer.body).toEqual(UPSTREAM_ERROR);
  });
});

describe('admin user look-ups (restore)', () => {
  const codesOf = async (username: string) =>
    ctx.database.db.select().from(restoreCodes).where(eq(restoreCodes.username, username));

  it.each([
    ['without username', { email: 'evil@example.com' }],
    ['with a NUL in the username', { username: 'bruno\u0000', email: 'bruno@example.com' }],
    ['with email an object', { username: 'bruno', email: { to: 'evil@example.com' } }],
    ['with a lone surrogate in the username', { username: 'bruno\ud800', email: 'b@example.com' }],
    [
      'with an email of 255 characters',
      { username: 'bruno', email: `${'b'.repeat(243)}@example.com` },
    ],
    ['with a line break in the email', { username: 'bruno', email: 'b@example.com\r\nBcc: x@y.z' }],
    ['with a username of 151 characters', { username: 'b'.repeat(151), email: 'b@example.com' }],
  ])('a user %s: no 500, no code stored', async (_what, body) => {
    const before = await ctx.database.db.select().from(restoreCodes);
    ctx.sim.inject('admin.user', { type: 'answer', body });
    const answer = await ctx.request('POST', '/api/v1/request-restore-code/', {
      body: { username: 'bruno' },
    });
    // The same 202 as for any name: the look-up runs after the answer.
    expect(answer.status).toBe(202);
    await restoreJobsDone(ctx);
    expect(await ctx.database.db.select().from(restoreCodes)).toEqual(before);
  });

  it('a well-formed answer still issues a code (the check is not a blanket refusal)', async () => {
    const before = (await codesOf('bruno')).map((c) => c.codeHash);
    const answer = await ctx.request('POST', '/api/v1/request-restore-code/', {
      body: { username: 'bruno' },
    });
    expect(answer.status).toBe(202);
    await restoreJobsDone(ctx);
    // One live code per account and variant: a new one, replacing any earlier.
    const after = await codesOf('bruno');
    expect(after).toHaveLength(1);
    expect(before).not.toContain(after[0].codeHash);
  });

  it('a look-up by e-mail answering a malformed list: no 500, no code stored', async () => {
    const before = await ctx.database.db.select().from(restoreCodes);
    ctx.sim.inject('admin.users', {
      type: 'answer',
      body: [{ username: 'bruno\u0000', email: 'bruno@example.com' }],
    });
    const answer = await ctx.request('POST', '/api/v1/request_restore_code/', {
      body: { email: 'bruno@example.com' },
    });
    expect(answer.status).toBe(201);
    await restoreJobsDone(ctx);
    expect(await ctx.database.db.select().from(restoreCodes)).toEqual(before);
  });
});
