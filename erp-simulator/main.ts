/** Standalone ERP simulator: `npm run erp-sim` (PORT default 8001, HOST default 127.0.0.1). */
import { DEMO_SERVICE_ACCOUNT, DEMO_STORE_GLNS, DEMO_USERS } from './data.js';
import { startSimulator } from './server.js';

const port = Number(process.env.PORT ?? 8001);
const host = process.env.HOST ?? '127.0.0.1';

const simulator = await startSimulator({ host, port });
console.log(`ERP simulator listening on ${simulator.url}`);
console.log(
  `  service account: ${DEMO_SERVICE_ACCOUNT.username} / ${DEMO_SERVICE_ACCOUNT.password}`,
);
for (const user of DEMO_USERS) {
  console.log(
    `  ${user.role.padEnd(8)} ${user.username} / ${user.password}  (${user.description})`,
  );
}
console.log(`  store GLNs: ${DEMO_STORE_GLNS.join(', ')}; central warehouse: WH-CENTRAL`);
console.log(
  '  fault switch: POST/DELETE /_sim/faults, POST /_sim/release, placed orders: GET /_sim/orders',
);

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping`);
  await simulator.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
