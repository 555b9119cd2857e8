import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';

/** Whether `redis-server` can be started (tests that need their own Redis skip otherwise). */
export const redisServerAvailable =
  spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Polls `condition` every `everyMs` until it holds; fails after `timeoutMs`. */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
  everyMs = 20,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

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
 * A redis-server of the test's own, without persistence, that the test starts, kills and
 * starts again on the same port. It is killed when the test process exits.
 */
export class ThrowawayRedis {
  readonly url: string;
  private process: ChildProcess | undefined;

  constructor(readonly port: number) {
    this.url = `redis://127.0.0.1:${port}`;
  }

  get running(): boolean {
    return this.process !== undefined;
  }

  /** Starts the server and resolves once it answers PING. */
  async start(): Promise<void> {
    if (this.process) throw new Error('redis-server already running');
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        tmpdir(),
        '--loglevel',
        'warning',
      ],
      { stdio: 'ignore' },
    );
    this.process = child;
    const kill = () => child.kill('SIGKILL');
    process.once('exit', kill);
    let exited = false;
    child.once('exit', () => {
      exited = true;
      process.off('exit', kill);
      if (this.process === child) this.process = undefined;
    });
    await until(
      async () => {
        if (exited) throw new Error(`redis-server on port ${this.port} exited at start`);
        return pings(this.port);
      },
      `redis-server answers on port ${this.port}`,
      10_000,
    );
  }

  /** Sends `signal` (SIGKILL: a crash; SIGTERM: a clean shutdown) and waits for the exit. */
  async stop(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.process;
    if (!child) return;
    const exited = once(child, 'exit');
    child.kill(signal);
    await exited;
  }

  /** SIGSTOP / SIGCONT: a Redis that hangs (connections stay open, nothing answers). */
  pause(): void {
    this.process?.kill('SIGSTOP');
  }

  resume(): void {
    this.process?.kill('SIGCONT');
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
