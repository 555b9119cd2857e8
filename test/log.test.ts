import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { logFormat } from '../src/log.js';
import { migratedDataDir } from './helpers/db.js';
import { until } from './helpers/wait.js';

/**
 * Log lines: JSON in production and whenever stdout is not a terminal; readable lines
 * (pino-pretty) at a terminal during development; LOG_FORMAT forces either.
 */

const format = (env: Record<string, string>, tty: boolean) =>
  logFormat(
    loadConfig({
      JWT_SECRET: 'log-test-secret-log-test-secret',
      UPSTREAM_URL: 'http://erp.example.com',
      UPSTREAM_ADMIN_USERNAME: 'svc',
      UPSTREAM_ADMIN_PASSWORD: 'svc-password',
      ...env,
    }),
    tty,
  );

describe('the log format', () => {
  it('is pretty only at a terminal outside production, unless LOG_FORMAT says', () => {
    expect(format({}, true)).toBe('pretty');
    expect(format({}, false)).toBe('json');
    expect(format({ NODE_ENV: 'production' }, true)).toBe('json');
    expect(format({ NODE_ENV: 'production' }, false)).toBe('json');
    expect(format({ LOG_FORMAT: 'json' }, true)).toBe('json');
    expect(format({ LOG_FORMAT: 'pretty' }, false)).toBe('pretty');
    expect(format({ LOG_FORMAT: 'pretty', NODE_ENV: 'production' }, false)).toBe('pretty');
  });

  it('refuses another LOG_FORMAT with one line naming it', () => {
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/^LOG_FORMAT must be json or pretty/);
  });
});

const running: ChildProcess[] = [];
afterAll(async () => {
  for (const child of running) {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      process.kill(-child.pid!, 'SIGKILL');
      await exited;
    }
  }
});

/**
 * The compiled service (as `npm start` runs it) with stdout on a terminal: `script` gives it
 * a pseudo-terminal. Its output up to the `listening` line, then it is stopped.
 */
async function startupOutputAtTerminal(env: Record<string, string>): Promise<string> {
  const child = spawn('script', ['-qfec', `${process.execPath} dist/src/main.js`, '/dev/null'], {
    env: { ...process.env, DATA_DIR: migratedDataDir(), PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
    // Its own process group: stopping it stops the service under `script` too.
    detached: true,
  });
  running.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  const exited = once(child, 'exit');
  await until(
    // The whole line: a line cut short would not parse.
    // Development: the demo logins follow `listening`; production has no simulator.
    () => /(demo logins|"msg":"listening")[^\n]*\n/.test(output) || child.exitCode !== null,
    'the service logs its start',
    30_000,
  );
  // What the service wrote; `script` adds its own words when stopped.
  const written = output;
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
  return written;
}

describe('the service at a terminal', () => {
  it('writes readable lines during development', async () => {
    const output = await startupOutputAtTerminal({ NODE_ENV: 'development' });
    const lines = output.split(/\r?\n/).filter((line) => line.trim() !== '');
    expect(
      lines.some((line) => /INFO.*listening/.test(line)),
      output,
    ).toBe(true);
    expect(
      lines.some((line) => line.trimStart().startsWith('{')),
      output,
    ).toBe(false);
  }, 60_000);

  it('writes JSON lines in production, terminal or not', async () => {
    const output = await startupOutputAtTerminal({
      NODE_ENV: 'production',
      JWT_SECRET: 'log-test-secret-log-test-secret',
      // Production needs an ERP address; nothing is asked of it at start.
      UPSTREAM_URL: 'http://127.0.0.1:9',
      UPSTREAM_ADMIN_USERNAME: 'svc',
      UPSTREAM_ADMIN_PASSWORD: 'svc-password',
    });
    const lines = output.split(/\r?\n/).filter((line) => line.trim() !== '');
    expect(lines.length, output).toBeGreaterThan(1);
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    expect(lines.map((line) => JSON.parse(line).msg)).toContain('listening');
  }, 60_000);
});
