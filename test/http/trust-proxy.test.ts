import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SERVICE_ACCOUNT } from '../../erp-simulator/data.js';
import { type Simulator, startSimulator } from '../../erp-simulator/server.js';
import { migratedDataDir } from '../helpers/db.js';
import { freePort, type ServiceProcess, startServiceProcess } from '../helpers/process.js';

/**
 * TRUST_PROXY as an operator runs it: Debian's HAProxy with deploy/haproxy/trust-proxy.cfg
 * in front of the service process (`npm start`'s wiring), clients on their own source
 * addresses (127.0.0.2, 127.0.0.3) sending forged X-Forwarded-For headers. The client
 * address the service uses is the one HAProxy saw: a forged header neither resets the
 * per-address login limit nor charges another client's counter.
 */

const HAPROXY_CONFIG = resolve(import.meta.dirname, '../../deploy/haproxy/trust-proxy.cfg');
const haproxyInstalled = spawnSync('haproxy', ['-v']).status === 0;
if (!haproxyInstalled) {
  console.warn(
    'test/http/trust-proxy.test.ts: skipped, haproxy is not installed (apt-get install haproxy)',
  );
}

const LIMIT = 3;
const ALICE = '127.0.0.2';
const BOB = '127.0.0.3';

interface Reply {
  status: number;
  body: string;
}

/** A login with a wrong password, sent from `localAddress` with the given extra headers. */
function login(
  url: string,
  localAddress: string,
  username: string,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const body = JSON.stringify({ username, password: 'not-the-password' });
  return new Promise((done, fail) => {
    const request = httpRequest(
      `${url}/api/v1/auth/jwt/token/`,
      {
        method: 'POST',
        localAddress,
        agent: false,
        headers: { 'content-type': 'application/json', ...headers },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => {
          text += chunk;
        });
        response.on('end', () => done({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.on('error', fail);
    request.end(body);
  });
}

async function untilListening(port: number, proxy: ChildProcess, output: () => string) {
  for (let i = 0; ; i++) {
    const open = await new Promise<boolean>((done) => {
      const socket = connect(port, '127.0.0.1');
      socket.on('connect', () => {
        socket.destroy();
        done(true);
      });
      socket.on('error', () => done(false));
    });
    if (open) return;
    if (i > 100 || proxy.exitCode !== null) throw new Error(`haproxy did not start: ${output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

let counter = 0;
/** A username no other request used: only the per-address counter is in play. */
const fresh = () => `nobody-${process.pid}-${++counter}`;

/**
 * Runs `scenario` inside one minute of the wall clock (the login limit counts per minute):
 * when the minute changed while it ran, once more.
 */
async function withinOneMinute(scenario: () => Promise<void>) {
  for (let attempt = 0; attempt < 2; attempt++) {
    const minute = Math.floor(Date.now() / 60_000);
    try {
      await scenario();
      return;
    } catch (error) {
      if (Math.floor(Date.now() / 60_000) === minute || attempt === 1) throw error;
    }
  }
}

describe.skipIf(!haproxyInstalled).each([
  ['a hop count', '1'],
  ["the proxy's address", '127.0.0.1'],
])('TRUST_PROXY as %s, behind HAProxy', (_name, trustProxy) => {
  let sim: Simulator;
  let service: ServiceProcess;
  let haproxy: ChildProcess;
  let proxyUrl: string;
  let log = '';

  beforeAll(async () => {
    sim = await startSimulator();
    const port = await freePort();
    service = await startServiceProcess(
      {
        PATH: process.env.PATH,
        DATA_DIR: migratedDataDir(),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'json',
        UPSTREAM_URL: sim.url,
        UPSTREAM_ADMIN_USERNAME: DEMO_SERVICE_ACCOUNT.username,
        UPSTREAM_ADMIN_PASSWORD: DEMO_SERVICE_ACCOUNT.password,
        AUTH_RATE_LIMIT_PER_MINUTE: String(LIMIT),
        TRUST_PROXY: trustProxy,
      },
      port,
    );
    const proxyPort = await freePort();
    haproxy = spawn('haproxy', ['-db', '-f', HAPROXY_CONFIG], {
      env: {
        PATH: process.env.PATH,
        HAPROXY_BIND: `127.0.0.1:${proxyPort}`,
        SERVICE_ADDRESS: `127.0.0.1:${port}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    haproxy.stdout!.on('data', (chunk) => {
      log += chunk;
    });
    haproxy.stderr!.on('data', (chunk) => {
      log += chunk;
    });
    await untilListening(proxyPort, haproxy, () => log);
    proxyUrl = `http://127.0.0.1:${proxyPort}`;
  }, 60_000);

  afterAll(async () => {
    if (haproxy && haproxy.exitCode === null) {
      haproxy.kill('SIGTERM');
      await once(haproxy, 'exit');
    }
    if (service && service.child.exitCode === null) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    await sim?.close();
  });

  it('a forged X-Forwarded-For does not reset the per-address limit', async () => {
    await withinOneMinute(async () => {
      const statuses: number[] = [];
      for (let i = 0; i <= LIMIT; i++) {
        // Each attempt claims another address, as an attacker spreading guesses would.
        const forged = { 'x-forwarded-for': `203.0.113.${i + 1}` };
        statuses.push((await login(proxyUrl, ALICE, fresh(), forged)).status);
      }
      // Over the limit within the minute: throttled, whatever address the header names.
      expect(statuses.slice(0, LIMIT)).not.toContain(429);
      expect(statuses[LIMIT]).toBe(429);
      expect(
        (await login(proxyUrl, ALICE, fresh(), { 'x-forwarded-for': '198.51.100.7' })).status,
      ).toBe(429);
    });
  });

  it('two real clients get separate counters; naming the other in the header charges nobody else', async () => {
    await withinOneMinute(async () => {
      // Alice is over her limit (the test above, or these attempts); she writes Bob's
      // address in the header: it is still her counter that refuses her.
      for (let i = 0; i <= LIMIT; i++) {
        await login(proxyUrl, ALICE, fresh(), { 'x-forwarded-for': BOB });
      }
      expect((await login(proxyUrl, ALICE, fresh(), { 'x-forwarded-for': BOB })).status).toBe(429);
      // Bob has a counter of his own, untouched by Alice's forgeries.
      for (let i = 0; i < LIMIT; i++) {
        expect((await login(proxyUrl, BOB, fresh())).status).toBe(400);
      }
      expect((await login(proxyUrl, BOB, fresh())).status).toBe(429);
    });
  });

  it('logs the address the proxy saw, not the forged one', async () => {
    await login(proxyUrl, BOB, fresh(), { 'x-forwarded-for': '192.0.2.66' });
    const addresses = service
      .output()
      .split('\n')
      .filter((line) => line.includes('/api/v1/auth/jwt/token/') && line.includes('"req"'))
      .map((line) => JSON.parse(line).req.remoteAddress);
    expect(addresses.length).toBeGreaterThan(0);
    expect(new Set(addresses)).toEqual(new Set([ALICE, BOB]));
  });
});
