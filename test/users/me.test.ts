import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { loginStaff } from '../helpers/fixtures.js';

let ctx: TestContext;
let anna: Session;
let staff: Session;
let admin: Session;

beforeAll(async () => {
  ctx = await startTestApp();
  anna = await ctx.login('anna');
  staff = await loginStaff(ctx);
  admin = await ctx.loginAs('carla', 'admin');
});
afterAll(() => ctx?.close());

const me = (session: Session | undefined) =>
  ctx.request('GET', '/api/v1/users/me/', { token: session?.token });

describe('GET users/me/', () => {
  it('answers the caller with their roles', async () => {
    const answer = await me(anna);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({
      id: anna.userId,
      username: 'anna',
      email: expect.any(String),
      first_name: 'Anna',
      last_name: 'Hoffmann',
      is_staff: false,
      is_admin: false,
    });
    expect((await me(staff)).body).toMatchObject({
      id: staff.userId,
      is_staff: true,
      is_admin: false,
    });
    expect((await me(admin)).body).toMatchObject({
      id: admin.userId,
      username: 'carla',
      is_admin: true,
    });
  });

  it('anonymous: 401 not_authenticated; a bad token: 401 token_not_valid', async () => {
    expect((await me(undefined)).body.code).toBe('not_authenticated');
    const bad = await ctx.request('GET', '/api/v1/users/me/', { token: 'not-a-jwt' });
    expect(bad.status).toBe(401);
    expect(bad.body.code).toBe('token_not_valid');
  });
});
