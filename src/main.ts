// First: stop on an unsupported Node before anything else loads.
import './runtime.js';
import type { Config } from './config.js';
import { tracingWanted } from './tracing/enabled.js';
import { flushTracing } from './tracing/spans.js';

/** `npm start`: the service, with the bundled simulator and demo data when UPSTREAM_URL is unset. */
async function main(): Promise<void> {
  // Tracing (OTEL_* variables) starts before the service's modules load, so that the pg and
  // ioredis instrumentations see them load; without it the SDK is never loaded.
  if (tracingWanted(process.env)) (await import('./tracing/sdk.js')).startTracing();
  const { ConfigError, loadConfig } = await import('./config.js');
  const { checkPortFree } = await import('./port.js');
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  // Before the service's modules load and anything is created: a busy PORT fails in a moment.
  await checkPortFree(config.host, config.port);
  const { startService } = await import('./service.js');
  const service = await startService(config, {
    onSimulator: async (deps) => {
      const { seedDemo } = await import('./admin/commands.js');
      const { seedDemoCarts } = await import('./admin/demo-carts.js');
      await seedDemo(deps.database.db, deps.clock.nowMicros());
      if (deps.config.demoCarts) await seedDemoCarts(deps.database.db, deps.clock.nowMicros());
    },
  });
  if (service.simulator) {
    const { DEMO_USERS } = await import('../erp-simulator/data.js');
    service.app.log.info(
      { users: DEMO_USERS.map((u) => `${u.username} / ${u.password} (${u.role})`) },
      'demo upstream simulator running; demo logins',
    );
  }
  // Last, so it is the line a person sees: where to go from here.
  const { addresses } = service;
  service.app.log.info(
    addresses,
    `ready: console ${addresses.console} · API docs ${addresses.docs} · API ${addresses.api}`,
  );
  let signals = 0;
  const shutdown = (signal: string) => {
    signals += 1;
    if (signals > 1) process.exit(1);
    service.app.log.info(
      { signal, drainMs: config.shutdownDrainMs, deadlineMs: config.shutdownTimeoutMs },
      'shutting down',
    );
    // The hard deadline: a request that never ends (or a close that hangs) does not keep the
    // process past it; exit 1 tells the supervisor the stop was not clean.
    setTimeout(() => {
      service.app.log.error(
        { deadlineMs: config.shutdownTimeoutMs },
        'shutdown deadline passed: exiting with work unfinished',
      );
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    service.stop(config.shutdownDrainMs).then(
      // The last spans are sent before the process ends (bounded by the deadline above).
      async () => {
        await flushTracing();
        process.exit(0);
      },
      (error) => {
        service.app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error) => {
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
