import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SERVICE_ACCOUNT } from '../../erp-simulator/data.js';
import { type Simulator, startSimulator } from '../../erp-simulator/server.js';
import { migratedDataDir } from '../helpers/db.js';
import { freePort, SERVICE_MAIN, startServiceProcess } from '../helpers/process.js';
import { until } from '../helpers/wait.js';
import { codeIn, linkIn, type SmtpReceiver, startSmtpReceiver } from '../mail/smtp.js';

// The service as `npm start` runs it (its own process, NODE_ENV=production, configured by
// the environment only), its log read as an operator's log collector would read it.
let sim: Simulator;
const children: ChildProcess[] = [];

beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(async () => {
  for (const child of children) {
    if (child.exitCode !== null) continue;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }
  await sim?.close();
});

/** The process environment: only what is named here (nothing from the test runner's). */
function production(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    JWT_SECRET: randomBytes(24).toString('hex'),
    DATA_DIR: migratedDataDir(),
    UPSTREAM_URL: sim.url,
    UPSTREAM_ADMIN_USERNAME: DEMO_SERVICE_ACCOUNT.username,
    UPSTREAM_ADMIN_PASSWORD: DEMO_SERVICE_ACCOUNT.password,
    // The most a log can hold: every level.
    LOG_LEVEL: 'trace',
    ...extra,
  };
}

async function start(extra: Record<string, string>) {
  const port = await freePort();
  const service = await startServiceProcess(production(extra), port);
  children.push(service.child);
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${service.url}/api/v1/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, text, body: text ? JSON.parse(text) : undefined };
  };
  return { ...service, port, post };
}

// Each test starts a service process (up to 60 s to be ready on a loaded machine: startServiceProcess).
describe('production without SMTP_URL', { timeout: 90_000 }, () => {
  it('says at start that restore is off, refuses restore requests with 503 restore_unavailable, and logs no mail', async () => {
    const service = await start({});
    await until(
      () => service.output().includes('password restore is off'),
      'the start line saying restore is off',
    );
    const byName = await service.post('request-restore-code/', { username: 'anna' });
    expect(byName.status).toBe(503);
    expect(byName.body).toEqual({
      detail: 'Password restore is not available: this service has no mail server configured.',
      code: 'restore_unavailable',
    });
    const byEmail = await service.post('request_restore_code/', { email: 'anna@example.com' });
    expect(byEmail.status).toBe(503);
    expect(byEmail.body.code).toBe('restore_unavailable');
    // Nothing of a mail reached the log: no message, no address, no code, no link.
    const log = service.output();
    expect(log).not.toMatch(/"mail"|e-mail \(SMTP_URL|restore-password\/[A-Za-z0-9_-]{20}/);
    expect(log).not.toContain('anna@example.com');
    expect(log).not.toMatch(/code to set a new password/i);
  });
});

describe('production with SMTP_URL', { timeout: 90_000 }, () => {
  it('refuses to start without PUBLIC_URL, naming it', async () => {
    const child = spawn(process.execPath, [SERVICE_MAIN], {
      env: { ...production({ SMTP_URL: 'smtp://127.0.0.1:2525' }), PORT: String(await freePort()) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout!.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr!.on('data', (chunk) => {
      output += chunk;
    });
    const [code] = await once(child, 'exit');
    expect(code).toBe(1);
    expect(output).toContain(
      'error: PUBLIC_URL is required when NODE_ENV=production and SMTP_URL is set',
    );
  });

  it('mails codes and links on PUBLIC_URL, and no code, link or password is ever in the log', async () => {
    const smtp: SmtpReceiver = await startSmtpReceiver();
    try {
      const service = await start({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://shop.example.com' });
      const asked = await service.post('request-restore-code/', { username: 'anna' });
      expect(asked.status).toBe(202);
      const code = codeIn(await smtp.next('anna@example.com', 0, 10_000))!;
      expect(code).toMatch(/^\d{6}$/);
      const linked = await service.post('request_restore_code/', { email: 'bruno@example.com' });
      expect(linked.status).toBe(201);
      const link = linkIn(await smtp.next('bruno@example.com', 0, 10_000));
      expect(link.link).toBe(`https://shop.example.com/users/restore-password/${link.code}/`);
      const restored = await service.post('restore-password/', {
        username: 'anna',
        code,
        password: 'anna-secret-restored-1',
      });
      expect(restored.status).toBe(202);
      const viaLink = await service.post('restore_password/', {
        password: 'bruno-secret-restored-1',
        repeat_password: 'bruno-secret-restored-1',
        restore_password_code: link.code,
      });
      expect(viaLink.status).toBe(201);
      // The requests were logged (so the log was looked at), their secrets not.
      const log = service.output();
      expect(log).toContain('request-restore-code');
      for (const secret of [
        link.code,
        'anna-secret-restored-1',
        'bruno-secret-restored-1',
        `"${code}"`,
        `code=${code}`,
        `: ${code}`,
      ]) {
        expect(log).not.toContain(secret);
      }
    } finally {
      await smtp.close();
    }
  });
});
