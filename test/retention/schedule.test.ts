import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_USERS } from '../../erp-simulator/data.js';
import { migratedDataDir } from '../helpers/db.js';
import { freePort, type ServiceProcess, startServiceProcess } from '../helpers/process.js';

/**
 * RETENTION_DAYS as `npm start` wires it: the scheduled run removes the demo's carts older
 * than the period, in the service's own process, and logs what it removed, every kind of row
 * counted; audit events keep AUDIT_RETENTION_DAYS.
 */
const CARLA = DEMO_USERS.find((u) => u.username === 'carla')!;
const dir = migratedDataDir();
let service: ServiceProcess | undefined;

afterAll(async () => {
  if (service && service.child.exitCode === null) {
    service.child.kill('SIGKILL');
    await service.exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('scheduled retention', () => {
  it('removes carts older than RETENTION_DAYS on its interval, and the rest stays', async () => {
    service = await startServiceProcess(
      {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATA_DIR: dir,
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'json',
        AUTH_RATE_LIMIT_PER_MINUTE: '0',
        RETENTION_DAYS: '30',
        RETENTION_INTERVAL_SECONDS: '1',
      },
      await freePort(),
      '/readyz',
    );
    const current = service;
    // The first run's log line (the demo's 90 days were seeded before the schedule began).
    const runLine = () =>
      current
        .output()
        .split('\n')
        .find((line) => line.includes('"retention run"'));
    for (let i = 0; !runLine(); i++) {
      if (i > 600) throw new Error(`no retention run logged: ${current.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const { retention } = JSON.parse(runLine()!);
    expect(retention.busy).toBe(false);
    expect(retention.carts).toBeGreaterThan(500);
    // Every kind of row is counted; the audit trail keeps its own period (730 days by default).
    for (const kind of [
      'lines',
      'checkouts',
      'controlLinks',
      'controls',
      'randomDraws',
      'restoreCodes',
      'loginFailures',
      'rollupRows',
      'auditEvents',
    ]) {
      expect(typeof retention[kind], kind).toBe('number');
    }
    expect(retention.lines).toBeGreaterThan(retention.carts);
    expect(Date.parse(retention.cutoff) - Date.parse(retention.auditCutoff)).toBe(700 * 86_400_000);

    const login = await fetch(`${current.url}/api/v1/auth/jwt/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: CARLA.username, password: CARLA.password }),
    });
    const { token } = (await login.json()) as { token: string };
    const series = (await (
      await fetch(`${current.url}/api/v1/carts/time-series/?interval=D`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { interval: string }[];
    // Days from the cutoff on (midnight UTC 30 days before today) remain; none before.
    expect(series.length).toBeGreaterThan(10);
    expect(Date.parse(series[0].interval)).toBeGreaterThanOrEqual(Date.parse(retention.cutoff));
    current.child.kill('SIGTERM');
    expect(await current.exited).toEqual([0, null]);
  }, 120_000);
});
