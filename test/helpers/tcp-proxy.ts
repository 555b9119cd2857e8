import { once } from 'node:events';
import { createConnection, createServer, type Server, type Socket } from 'node:net';

interface Pair {
  client: Socket;
  server: Socket | undefined;
}

/** A cut the proxy makes when the client (the service) sends a statement containing `text`. */
interface CutRule {
  text: string;
  /** before: the statement never reaches the database; after: it runs, its answer is lost. */
  when: 'before' | 'after';
  times: number;
}

/**
 * A TCP proxy between the service and PostgreSQL that a test drives while requests run:
 * cut every connection, refuse new ones (database down), stop forwarding (database frozen),
 * or cut a connection at the moment a given statement passes.
 */
export class TcpProxy {
  private readonly pairs = new Set<Pair>();
  private mode: 'forward' | 'refuse' | 'freeze' = 'forward';
  private readonly rules: CutRule[] = [];
  private readonly held: Pair[] = [];
  /** Connections cut so far (by any means). */
  cuts = 0;
  /** Connections closed at once on arrival while refusing. */
  refused = 0;
  private unpluggedPort: number | undefined;

  private constructor(
    private server: Server,
    private target: { host: string; port: number },
  ) {
    server.on('connection', (client) => this.accept(client));
  }

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return new TcpProxy(server, target);
  }

  get port(): number {
    return this.unpluggedPort ?? (this.server.address() as { port: number }).port;
  }

  /** `url` with its host and port replaced by the proxy's. */
  urlFor(url: string): string {
    const proxied = new URL(url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(this.port);
    return proxied.toString();
  }

  /** Open connections (through to the database or held). */
  get open(): number {
    return this.pairs.size;
  }

  /** Drops every open connection at once (as a server restart does). */
  cutAll(): void {
    for (const pair of [...this.pairs]) this.cut(pair);
  }

  /** Database down: open connections are cut and new ones closed at once. */
  refuse(): void {
    this.mode = 'refuse';
    this.cutAll();
  }

  /** Database frozen: nothing is forwarded either way; new connections are held unanswered. */
  freeze(): void {
    this.mode = 'freeze';
    for (const pair of this.pairs) {
      pair.client.pause();
      pair.server?.pause();
    }
  }

  /** Back to normal: held connections go through, paused ones flow again. */
  restore(): void {
    const wasFrozen = this.mode === 'freeze';
    this.mode = 'forward';
    if (!wasFrozen) return;
    for (const pair of this.pairs) {
      pair.client.resume();
      pair.server?.resume();
    }
    for (const pair of this.held.splice(0)) this.connect(pair);
  }

  /**
   * Nobody listening (a refused connection, as when upstream is down): the listener closes
   * at once, and open connections are cut unless `cut` is false (they go on meanwhile).
   * `replug` listens on the same port again.
   */
  unplug(options: { cut?: boolean } = {}): void {
    if (this.unpluggedPort !== undefined) return;
    this.unpluggedPort = this.port;
    // close() stops listening at once; its callback waits for open connections: not awaited.
    this.server.close();
    if (options.cut ?? true) this.cutAll();
  }

  async replug(): Promise<void> {
    const port = this.unpluggedPort;
    if (port === undefined) return;
    this.server = createServer();
    this.server.on('connection', (client) => this.accept(client));
    this.server.listen(port, '127.0.0.1');
    await once(this.server, 'listening');
    this.unpluggedPort = undefined;
  }

  /** New connections go to `target` from now on (an endpoint that moved); open ones stay. */
  retarget(target: { host: string; port: number }): void {
    this.target = target;
  }

  /** Cuts the next `times` connections that send a statement containing `text`. */
  cutOn(text: string, when: 'before' | 'after', times = 1): void {
    this.rules.push({ text, when, times });
  }

  async close(): Promise<void> {
    this.mode = 'refuse';
    this.cutAll();
    if (this.unpluggedPort !== undefined) return;
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    client.on('error', () => {});
    if (this.mode === 'refuse') {
      this.refused += 1;
      client.destroy();
      return;
    }
    const pair: Pair = { client, server: undefined };
    this.pairs.add(pair);
    client.on('close', () => this.cut(pair));
    if (this.mode === 'freeze') {
      client.pause();
      this.held.push(pair);
      return;
    }
    this.connect(pair);
  }

  private connect(pair: Pair): void {
    const server = createConnection(this.target);
    pair.server = server;
    server.on('error', () => {});
    server.on('close', () => this.cut(pair));
    server.on('data', (chunk) => {
      if (!pair.client.destroyed) pair.client.write(chunk);
    });
    pair.client.on('data', (chunk: Buffer) => this.forward(pair, chunk));
    pair.client.resume();
  }

  private forward(pair: Pair, chunk: Buffer): void {
    const server = pair.server;
    if (!server || server.destroyed) return;
    const text = chunk.toString('latin1');
    const rule = this.rules.find((r) => r.times > 0 && text.includes(r.text));
    if (!rule) {
      server.write(chunk);
      return;
    }
    rule.times -= 1;
    if (rule.when === 'before') {
      this.cut(pair);
      return;
    }
    // The statement reaches the database, with the rest of its messages should the client
    // send them in further chunks (a prepared statement's Bind, Execute and Sync); the service
    // loses the connection when the database answers, before the answer reaches it.
    this.pairs.delete(pair);
    this.cuts += 1;
    server.removeAllListeners('data');
    server.once('data', () => {
      pair.client.destroy();
      server.destroy();
    });
    server.write(chunk);
  }

  private cut(pair: Pair): void {
    if (!this.pairs.delete(pair)) return;
    this.cuts += 1;
    pair.client.destroy();
    pair.server?.destroy();
  }
}
