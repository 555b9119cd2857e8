import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.js';
import { PASSWORDS, startTestApp, type TestContext } from '../helpers/app.js';
import { createPostgresDatabase, createTestDatabase, onPostgres } from '../helpers/db.js';

/**
 * Ending sessions is state in the database, not in one process: two instances over one
 * database (on PostgreSQL each with its own pool; on PGlite, which one process owns, the two
 * apps share its handle), and a password changed through A ends the token at B at once.
 */

let a: TestContext;
let b: TestContext;
let drop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  let first: Database;
  let second: Database;
  if (onPostgres) {
    const created = await createPostgresDatabase();
    drop = created.drop;
    first = await openDatabase({ url: created.url, poolSize: 4 });
    second = await openDatabase({ url: created.url, poolSize: 4 });
  } else {
    first = await createTestDatabase();
    // B must not close what A owns.
    second = { ...first, close: async () => {} };
  }
  // B first: it closes before A, which closes the shared handle.
  b = await startTestApp({ database: second });
  a = await startTestApp({ database: first });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
  await drop?.();
});

describe('two instances on one database', () => {
  it('instance B refuses a token (use and refresh) once instance A changed the password', async () => {
    // Logged in at A; the token works at B (same JWT_SECRET, same users table).
    const session = await a.login('anna');
    expect((await b.request('GET', '/api/v1/users/me/', { token: session.token })).status).toBe(
      200,
    );
    const changed = await a.request('PATCH', '/api/v1/users/me/change-password/', {
      token: session.token,
      headers: { 'authorization-upstream': `Bearer ${session.upstreamToken}` },
      body: { password: PASSWORDS.anna, new_password: 'anna-other-pass-1' },
    });
    expect(changed.status).toBe(200);
    const used = await b.request('GET', '/api/v1/users/me/', { token: session.token });
    expect(used.status).toBe(401);
    expect(used.body.code).toBe('token_not_valid');
    const refreshed = await b.request('POST', '/api/v1/auth/jwt/refresh/', {
      body: { token: session.token },
    });
    expect(refreshed.status).toBe(400);
    expect(refreshed.body.non_field_errors).toHaveLength(1);
  });
});
