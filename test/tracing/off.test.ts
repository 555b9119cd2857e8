import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_USERS } from '../../erp-simulator/data.js';
import { tracingWanted } from '../../src/tracing/enabled.js';
import { migratedDataDir } from '../helpers/db.js';
import { freePort, startServiceProcess } from '../helpers/process.js';

/**
 * Tracing is off unless the OTEL_* variables turn it on, and then costs nothing: the
 * service (started as `npm start` starts it, with a loader hook recording every module it
 * loads: test/helpers/loaded-modules.mjs) never loads the SDK, an exporter or an
 * instrumentation.
 */
const dir = mkdtempSync(join(tmpdir(), 'tracing-off-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tracing off', () => {
  it('is on only with an OTLP endpoint, and not when disabled', () => {
    expect(tracingWanted({})).toBe(false);
    expect(tracingWanted({ OTEL_SERVICE_NAME: 'x' })).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' })).toBe(
      true,
    );
    expect(
      tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }),
    ).toBe(false);
    expect(
      tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' }),
    ).toBe(false);
  });

  it('loads no OpenTelemetry SDK, exporter or instrumentation into the service', async () => {
    const file = join(dir, 'modules.txt');
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of Object.keys(env)) if (name.startsWith('OTEL_')) delete env[name];
    const service = await startServiceProcess(
      {
        ...env,
        DATA_DIR: migratedDataDir(),
        DEMO_CARTS: 'false',
        LOG_LEVEL: 'warn',
        NODE_OPTIONS: '--import ./test/helpers/loaded-modules.mjs',
        LOADED_MODULES_FILE: file,
      },
      await freePort(),
    );
    try {
      const anna = DEMO_USERS.find((u) => u.username === 'anna')!;
      const login = await fetch(`${service.url}/api/v1/auth/jwt/token/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: anna.username, password: anna.password }),
      });
      expect(login.status).toBe(200);
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    const loaded = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    expect(loaded.some((url) => url.includes('/dist/src/tracing/spans.js'))).toBe(true);
    const heavy = loaded.filter((url) =>
      /@opentelemetry\/(sdk-|exporter-|instrumentation|resources)|@fastify\/otel|\/dist\/src\/tracing\/sdk\.js/.test(
        url,
      ),
    );
    expect(heavy).toEqual([]);
  }, 60_000);
});
