import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';

/** Whether `redis-server` can be started (tests that need their own Redis skip otherwise). */
export const redisServerAvailable =
  spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;

import { until } from './wait.js';

export { freePort } from './process.js';

/** Whether a Redis answers PING on the port (within a second). */
function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk: Buffer) => {
      answer += chunk;
      if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
    });
    socket.on('error', () => done(false));
  });
}

/**
 * Runs redis-server with the arguments given, prints its pid, and kills it once its own
 * stdin closes: when the test process ends in any way (even killed), redis-server does too.
 * Exits when redis-server exits.
 */
const WATCHDOG = `exec 3<&0
redis-server "$@" </dev/null &
r=$!
echo "$r"
(while read -r _; do :; done; kill -9 "$r" 2>/dev/null) <&3 &
w=$!
wait "$r"
kill "$w" 2>/dev/null
exit 0`;

/**
 * A redis-server of the test's own, without persistence, that the test starts, kills and
 * starts again on the same port. It never outlives the test process.
 */
export class ThrowawayRedis {
  readonly url: string;
  private process: ChildProcess | undefined;
  private pid: number | undefined;

  constructor(readonly port: number) {
    this.url = `redis://127.0.0.1:${port}`;
  }

  get running(): boolean {
    return this.process !== undefined;
  }

  /** Starts the server and resolves once it answers PING. */
  async start(): Promise<void> {
    if (this.process) throw new Error('redis-server already running');
    const args = [
      ...['--port', String(this.port), '--bind', '127.0.0.1'],
      ...['--save', '', '--appendonly', 'no', '--dir', tmpdir(), '--loglevel', 'warning'],
    ];
    const child = spawn('sh', ['-c', WATCHDOG, 'redis-watchdog', ...args], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    this.process = child;
    let exited = false;
    child.once('exit', () => {
      exited = true;
      if (this.process === child) {
        this.process = undefined;
        this.pid = undefined;
      }
    });
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk;
      const pid = Number.parseInt(out, 10);
      if (out.includes('\n') && pid > 0) this.pid = pid;
    });
    await until(
      async () => {
        if (exited) throw new Error(`redis-server on port ${this.port} exited at start`);
        return this.pid !== undefined && (await pings(this.port));
      },
      `redis-server answers on port ${this.port}`,
      10_000,
    );
  }

  /** Sends `signal` (SIGKILL: a crash; SIGTERM: a clean shutdown) and waits for the exit. */
  async stop(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.process;
    if (!child || this.pid === undefined) return;
    const exited = once(child, 'exit');
    process.kill(this.pid, signal);
    await exited;
  }

  /** SIGSTOP / SIGCONT: a Redis that hangs (connections stay open, nothing answers). */
  pause(): void {
    if (this.pid !== undefined) process.kill(this.pid, 'SIGSTOP');
  }

  resume(): void {
    if (this.pid !== undefined) process.kill(this.pid, 'SIGCONT');
  }
}

/**
 * Something on the port that is not (yet) Redis: it accepts connections and closes them at
 * once, counting them, so a test can wait until clients have tried (and failed) a number of
 * times.
 */
export async function refusingListener(
  port: number,
): Promise<{ readonly connections: number; close(): Promise<void> }> {
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    get connections() {
      return connections;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
