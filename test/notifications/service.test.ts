import { afterAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { type Service, startService } from '../../src/service.js';
import { PASSWORDS } from '../helpers/app.js';
import { open, wsUrl } from './client.js';

let service: Service | undefined;
afterAll(() => service?.stop());

it('stopping the service closes WebSockets with 1001 (going away)', async () => {
  service = await startService(
    loadConfig({
      DATABASE_URL: 'memory://',
      PORT: '0',
      LOG_LEVEL: 'silent',
      ...(process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL } : {}),
    }),
  );
  const { url } = service;
  const post = async (path: string, body?: unknown, token?: string) => {
    const response = await fetch(url + path, {
      method: 'POST',
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status).toBeLessThan(300);
    return response.json();
  };
  const { token } = await post('/api/v1/auth/jwt/token/', {
    username: 'anna',
    password: PASSWORDS.anna,
  });
  const { code } = await post('/api/v1/websocket-notifications/groups/', undefined, token);
  const client = await open(wsUrl(url, code));
  await service.stop();
  expect(await client.closed).toBe(1001);
}, 60_000); // an embedded database initialized from scratch
