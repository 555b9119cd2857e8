import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { WebSocket } from 'ws';

export type NotificationType =
  | 'cart.checked_out'
  | 'cart.checkout_failed'
  | 'control.created'
  | 'control.verified';

export interface NotificationMessage {
  type: NotificationType;
  data: Record<string, unknown>;
  created: string;
}

export interface NotifierOptions {
  /** Set: messages also travel through Redis pub/sub to every other instance. */
  redisUrl?: string;
  /** Ping interval; a socket that did not pong since the last ping is terminated. */
  heartbeatMs?: number;
  channel?: string;
  log?: FastifyBaseLogger;
}

export const DEFAULT_CHANNEL = 'ordering:notifications';
const READY = 1; // WebSocket.OPEN
const MAX_BUFFERED_BYTES = 1024 * 1024;

interface Connection {
  userId: number;
  alive: boolean;
}

/** What travels on the Redis channel: `origin` lets an instance skip its own messages. */
interface Envelope {
  origin: string;
  users: number[];
  message: NotificationMessage;
}

/**
 * The WebSocket connections of this instance, by user, and the delivery of messages to
 * them. With Redis, every instance subscribes to one channel and delivers to its own
 * sockets; the publishing instance delivers locally at once, so local delivery never
 * depends on Redis. Publishing never throws: failures are logged.
 */
export class Notifier {
  /** Replaced by the app's logger when the notifier was made before the app. */
  log: FastifyBaseLogger | undefined;
  private readonly byUser = new Map<number, Set<WebSocket>>();
  private readonly connections = new Map<WebSocket, Connection>();
  private readonly origin = randomUUID();
  private readonly channel: string;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly publisher: Redis | undefined;
  private readonly subscriber: Redis | undefined;
  private readonly subscribed: Promise<void>;
  private closed = false;

  constructor(options: NotifierOptions = {}) {
    this.log = options.log;
    this.channel = options.channel ?? DEFAULT_CHANNEL;
    this.heartbeat = setInterval(() => this.beat(), options.heartbeatMs ?? 30_000);
    this.heartbeat.unref();
    if (!options.redisUrl) {
      this.subscribed = Promise.resolve();
      return;
    }
    const redisOptions = {
      connectTimeout: 2000,
      // Reconnect forever, but never wait more than 2 s between attempts.
      retryStrategy: (times: number) => Math.min(times * 200, 2000),
      maxRetriesPerRequest: 1,
    };
    // A publish while Redis is away fails at once (logged) instead of queueing.
    this.publisher = new Redis(options.redisUrl, { ...redisOptions, enableOfflineQueue: false });
    this.subscriber = new Redis(options.redisUrl, redisOptions);
    for (const [name, client] of [
      ['publisher', this.publisher],
      ['subscriber', this.subscriber],
    ] as const) {
      // Once per outage: a reconnect loop would otherwise log every 2 s.
      let reported = false;
      client.on('error', (error: Error & { code?: string }) => {
        if (reported) return;
        reported = true;
        this.log?.warn(
          { err: { message: error.message, code: error.code }, redis: name },
          'notifications: Redis error',
        );
      });
      client.on('ready', () => {
        reported = false;
      });
    }
    this.subscriber.on('message', (channel: string, text: string) => {
      if (channel === this.channel) this.receive(text);
    });
    this.subscribed = this.subscriber.subscribe(this.channel).then(
      () => undefined,
      (error) => this.log?.error({ err: error }, 'redis subscribe failed'),
    );
  }

  /** Resolves once the Redis subscription is in place (at once without Redis). */
  async ready(): Promise<void> {
    await this.subscribed;
    if (this.publisher && this.publisher.status !== 'ready') {
      await new Promise<void>((resolve) => this.publisher!.once('ready', () => resolve()));
    }
  }

  /** Adds a socket to the user's connections; it leaves them when it closes. */
  add(userId: number, socket: WebSocket): void {
    const sockets = this.byUser.get(userId) ?? new Set<WebSocket>();
    sockets.add(socket);
    this.byUser.set(userId, sockets);
    const connection: Connection = { userId, alive: true };
    this.connections.set(socket, connection);
    socket.on('pong', () => {
      connection.alive = true;
    });
    socket.on('close', () => this.remove(socket));
  }

  /** Open connections of the user on this instance. */
  count(userId: number): number {
    return this.byUser.get(userId)?.size ?? 0;
  }

  publish(userIds: number[], message: NotificationMessage): void {
    const users = [...new Set(userIds)];
    if (users.length === 0 || this.closed) return;
    this.deliver(users, message);
    if (!this.publisher) return;
    const envelope: Envelope = { origin: this.origin, users, message };
    this.publisher
      .publish(this.channel, JSON.stringify(envelope))
      .catch((error) =>
        this.log?.error({ err: error, type: message.type }, 'notification publish failed'),
      );
  }

  /** Stops the heartbeat and Redis; closes sockets still open with 1001 (going away). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    for (const socket of this.connections.keys()) {
      if (socket.readyState === READY) socket.close(1001, 'Server shutting down');
    }
    this.publisher?.disconnect();
    this.subscriber?.disconnect();
  }

  private deliver(users: number[], message: NotificationMessage): void {
    const text = JSON.stringify(message);
    for (const userId of users) {
      for (const socket of this.byUser.get(userId) ?? []) {
        if (socket.readyState !== READY) continue;
        // A client that reads nothing must not make the server buffer without end.
        if (socket.bufferedAmount > MAX_BUFFERED_BYTES) socket.terminate();
        else socket.send(text);
      }
    }
  }

  private receive(text: string): void {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(text) as Envelope;
    } catch (error) {
      this.log?.warn({ err: error }, 'unreadable notification from redis');
      return;
    }
    if (envelope.origin === this.origin || !Array.isArray(envelope.users)) return;
    this.deliver(envelope.users, envelope.message);
  }

  private remove(socket: WebSocket): void {
    const connection = this.connections.get(socket);
    if (!connection) return;
    this.connections.delete(socket);
    const sockets = this.byUser.get(connection.userId);
    sockets?.delete(socket);
    if (sockets?.size === 0) this.byUser.delete(connection.userId);
  }

  /** A socket that missed the last ping is gone (a dead peer sends no close frame). */
  private beat(): void {
    for (const [socket, connection] of this.connections) {
      if (!connection.alive) {
        socket.terminate();
        this.remove(socket);
        continue;
      }
      connection.alive = false;
      if (socket.readyState === READY) socket.ping();
    }
  }
}
