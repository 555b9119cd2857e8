import { ConfigError, loadConfig } from './config.js';
import { startService } from './service.js';

/** `npm start`: the service, with the bundled simulator and demo data when UPSTREAM_URL is unset. */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
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
  let signals = 0;
  const shutdown = (signal: string) => {
    signals += 1;
    if (signals > 1) process.exit(1);
    service.app.log.info({ signal }, 'shutting down');
    service.stop().then(
      () => process.exit(0),
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
