import { type App, buildApp, type Deps } from './app.js';
import { type Clock, systemClock } from './clock.js';
import type { Config } from './config.js';
import { secureRandom } from './controls/secure-random.js';
import { openDatabase } from './db/client.js';
import { UpstreamClient } from './upstream/client.js';
import { DEMO_SERVICE_ACCOUNT } from './upstream/simulator/data.js';
import { type Simulator, startSimulator } from './upstream/simulator/server.js';

export interface Service {
  app: App;
  url: string;
  simulator: Simulator | undefined;
  /** Stops accepting, finishes requests in flight, then closes everything else. */
  stop(): Promise<void>;
}

export interface ServiceOptions {
  clock?: Clock;
  /** Runs before listening when the bundled simulator is used (demo data). */
  onSimulator?: (deps: Deps) => Promise<void>;
}

/**
 * Opens the database (migrating it), the upstream client (starting the bundled simulator
 * when UPSTREAM_URL is unset) and the app, and listens.
 */
export async function startService(config: Config, options: ServiceOptions = {}): Promise<Service> {
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.inMemory ? undefined : config.dataDir,
  });
  await database.migrate();
  let simulator: Simulator | undefined;
  let upstreamUrl = config.upstreamUrl;
  let serviceAccount = {
    username: config.upstreamAdminUsername ?? '',
    password: config.upstreamAdminPassword ?? '',
  };
  if (!upstreamUrl) {
    simulator = await startSimulator();
    upstreamUrl = simulator.url;
    serviceAccount = DEMO_SERVICE_ACCOUNT;
  }
  const upstream = new UpstreamClient({
    url: upstreamUrl,
    timeoutMs: config.upstreamTimeoutMs,
    serviceAccount,
  });
  const deps: Deps = {
    config,
    database,
    upstream,
    clock: options.clock ?? systemClock,
    random: secureRandom,
  };
  if (simulator && options.onSimulator) await options.onSimulator(deps);
  const app = await buildApp(deps);
  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = address && typeof address === 'object' ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  app.log.info(
    {
      url,
      database: database.kind,
      upstream: simulator ? `simulator at ${simulator.url}` : upstreamUrl,
    },
    'listening',
  );
  let stopping: Promise<void> | undefined;
  return {
    app,
    url,
    simulator,
    stop() {
      stopping ??= (async () => {
        // Closes WebSockets with 1001 and the notifier buildApp made from config.
        await app.close();
        await upstream.close();
        await simulator?.close();
        await database.close();
      })();
      return stopping;
    },
  };
}
