import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { WebSocket } from 'ws';
import { withSpanSync } from '../tracing/spans.js';

/** Every type of message the socket carries (described in src/notifications/asyncapi.ts). */
export const NOTIFICATION_TYPES = [
  'cart.checked_out',
  'cart.checkout_failed',
  'control.created',
  'control.verified',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

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

/**
 * The current session generation of each user that still exists, and whether they are staff
 * or admin (src/protections/sessions.ts).
 */
export type SessionGenerations = (
  userIds: number[],
) => Promise<Map<number, { generation: number; staff: boolean }>>;

export const DEFAULT_CHANNEL = 'ordering:notifications';
const READY = 1; // WebSocket.OPEN
const MAX_BUFFERED_BYTES = 1024 * 1024;
/** The close code of a socket that made way for a newer one of its user (docs/http-contract.md). */
export const TOO_MANY_CONNECTIONS = 4429;
/** The close code of a socket whose user's sessions were ended (docs/http-contract.md). */
export const SESSION_ENDED_CLOSE = 4401;
/** WebSocket's own "Going Away" (RFC 6455): the server shuts down. */
export const GOING_AWAY_CLOSE = 1001;

interface Connection {
  userId: number;
  alive: boolean;
  /** The session the socket was opened for; undefined: not checked on the heartbeat. */
  generation: number | undefined;
  /** Hears what staff hear (`publish(…, { staff: true })`); refreshed on each heartbeat. */
  staff: boolean;
}

/**
 * What travels on the Redis channel: `origin` lets an instance skip its own messages.
 * `close`: users whose sockets every instance closes (sessions ended); such an envelope has
 * no `users`, so an instance of an earlier release delivers it to no one.
 */
interface Envelope {
  origin: string;
  users: number[];
  message?: NotificationMessage;
  /** The message is also for every staff socket. */
  staff?: boolean;
  close?: number[];
}

/** Backoff of SUBSCRIBE retries on a connection that is up: 200 ms, doubling, at most this. */
const SUBSCRIBE_RETRY_MAX_MS = 5000;

type RedisRole = 'publisher' | 'subscriber';

/**
 * The WebSocket connections of this instance, by user, and the delivery of messages to
 * them. With Redis, every instance subscribes to one channel and delivers to its own
 * sockets; the publishing instance delivers locally at once, so local delivery never
 * depends on Redis. Publishing never throws: failures are logged.
 *
 * Both Redis connections reconnect forever. The subscription is (re)issued by this class on
 * every connection of the subscriber that becomes ready, and retried with backoff while it
 * fails, so an instance that starts while Redis is down, or lives through a Redis restart,
 * gets the events of other instances again as soon as Redis is back. Each outage is logged
 * once per connection, and its end once.
 */
export class Notifier {
  /** Replaced by the app's logger when the notifier was made before the app. */
  log: FastifyBaseLogger | undefined;
  /**
   * Messages that did not travel between instances: publishes Redis refused (each one, also
   * during an outage, which is logged once) and unreadable messages received. For metrics.
   */
  fanoutErrors = 0;
  /**
   * Set (by the app): each heartbeat closes with 4401 the sockets whose session has ended
   * since they opened, whatever Redis did: a close message lost with Redis, or sent by a
   * process without Redis (`ordering-admin users end-sessions`), still takes effect within
   * one heartbeat.
   */
  generations: SessionGenerations | undefined;
  private checking = false;
  private checkFailed = false;
  private readonly byUser = new Map<number, Set<WebSocket>>();
  private readonly connections = new Map<WebSocket, Connection>();
  /** The sockets of staff users and admins (`Connection.staff`). */
  private readonly staffSockets = new Set<WebSocket>();
  private readonly origin = randomUUID();
  private readonly channel: string;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly publisher: Redis | undefined;
  private readonly subscriber: Redis | undefined;
  /** True while the SUBSCRIBE of the current subscriber connection holds. */
  private subscribed = false;
  /** Bumped on every ready and close of the subscriber: older SUBSCRIBE answers are stale. */
  private generation = 0;
  private retry: NodeJS.Timeout | undefined;
  /** The connections whose current outage was logged (reset once they are back). */
  private readonly down = new Set<RedisRole>();
  private hasSubscribed = false;
  private waiters: { resolve: () => void; reject: (error: Error) => void }[] = [];
  private closed = false;

  constructor(options: NotifierOptions = {}) {
    this.log = options.log;
    this.channel = options.channel ?? DEFAULT_CHANNEL;
    this.heartbeat = setInterval(() => this.beat(), options.heartbeatMs ?? 30_000);
    this.heartbeat.unref();
    if (!options.redisUrl) return;
    const redisOptions = {
      connectTimeout: 2000,
      // Reconnect forever, but never wait more than 2 s between attempts.
      retryStrategy: (times: number) => Math.min(times * 200, 2000),
      maxRetriesPerRequest: 1,
      // Commands go out on a ready connection or fail at once: nothing queues during an
      // outage (a publish then is lost for other instances, and logged).
      enableOfflineQueue: false,
    };
    this.publisher = new Redis(options.redisUrl, redisOptions);
    // ioredis resubscribes by itself only to channels whose SUBSCRIBE once succeeded, and
    // not at all when the first one failed (Redis down at start): this class does it.
    this.subscriber = new Redis(options.redisUrl, {
      ...redisOptions,
      autoResubscribe: false,
      autoResendUnfulfilledCommands: false,
    });

    this.publisher.on('error', (error: Error) => this.outage('publisher', error));
    this.publisher.on('close', () => this.outage('publisher'));
    this.publisher.on('ready', () => {
      if (this.down.delete('publisher')) {
        this.log?.info({ redis: 'publisher' }, 'notifications: Redis publisher connected again');
      }
      this.settle();
    });

    const subscriber = this.subscriber;
    subscriber.on('error', (error: Error) => this.outage('subscriber', error));
    subscriber.on('close', () => {
      this.generation++;
      clearTimeout(this.retry);
      if (this.subscribed) this.outage('subscriber');
      this.subscribed = false;
    });
    subscriber.on('ready', () => {
      this.generation++;
      clearTimeout(this.retry);
      this.subscribe(this.generation, 0);
    });
    subscriber.on('message', (channel: string, text: string) => {
      if (channel === this.channel) this.receive(text);
    });
  }

  /**
   * Resolves once the Redis subscription holds and the publisher is connected (at once
   * without Redis). While Redis is down it waits for Redis to come back; rejects when the
   * notifier is closed first.
   */
  ready(): Promise<void> {
    if (this.isReady()) return Promise.resolve();
    if (this.closed) return Promise.reject(new Error('notifier closed'));
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  /**
   * Adds a socket to the user's connections; it leaves them when it closes. A user who
   * already holds `maxPerUser` sockets here loses the oldest (closed with 4429): a client
   * reconnecting always gets its newest socket, and no user holds more than the cap.
   */
  add(
    userId: number,
    socket: WebSocket,
    maxPerUser = Number.POSITIVE_INFINITY,
    generation?: number,
    { staff = false }: { staff?: boolean } = {},
  ): void {
    const sockets = this.byUser.get(userId) ?? new Set<WebSocket>();
    // A Set iterates in insertion order: the first is the oldest.
    for (const oldest of sockets) {
      if (sockets.size < maxPerUser) break;
      // Out of the count at once, not when its close handshake ends.
      this.remove(oldest);
      if (oldest.readyState === READY) oldest.close(TOO_MANY_CONNECTIONS, 'Too many connections');
      else oldest.terminate();
    }
    sockets.add(socket);
    this.byUser.set(userId, sockets);
    const connection: Connection = { userId, alive: true, generation, staff };
    this.connections.set(socket, connection);
    if (staff) this.staffSockets.add(socket);
    socket.on('pong', () => {
      connection.alive = true;
    });
    socket.on('close', () => this.remove(socket));
  }

  /** Open connections on this instance, of all users. */
  total(): number {
    return this.connections.size;
  }

  /** Open connections of the user on this instance. */
  count(userId: number): number {
    return this.byUser.get(userId)?.size ?? 0;
  }

  /**
   * To the users' sockets and, with `staff`, to every staff (or admin) socket, on every
   * instance. Who is staff is known per socket (from its opening, refreshed each heartbeat):
   * a message to staff costs no look-up of who they are.
   */
  publish(userIds: number[], message: NotificationMessage, { staff = false } = {}): void {
    const users = [...new Set(userIds)];
    if ((users.length === 0 && !staff) || this.closed) return;
    // With tracing on: a span for the fan-out (this instance's sockets, then Redis's publish,
    // ioredis's span under it), counts only.
    withSpanSync(
      `notify ${message.type}`,
      {
        'notification.type': message.type,
        'notification.users': users.length,
        'notification.staff': staff,
      },
      () => {
        this.deliver(users, message, staff);
        this.fanOut({ origin: this.origin, users, message, ...(staff && { staff }) }, message.type);
      },
    );
  }

  /**
   * The user's sessions were ended (src/protections/sessions.ts): their sockets are closed with
   * 4401 here at once and, through Redis, on every other instance. A socket authenticated
   * once, by a code of a session that no longer exists, must not keep receiving events.
   */
  endSessions(userId: number): void {
    if (this.closed) return;
    this.closeUser(userId);
    this.fanOut({ origin: this.origin, users: [], close: [userId] }, 'sessions.ended');
  }

  private fanOut(envelope: Envelope, type: string): void {
    if (!this.publisher) return;
    const publisher = this.publisher;
    publisher.publish(this.channel, JSON.stringify(envelope)).catch((error: Error) => {
      this.fanoutErrors++;
      // During an outage the failure is the outage, already logged once.
      if (publisher.status !== 'ready') this.outage('publisher', error);
      else this.log?.error({ err: error, type }, 'notification publish failed');
    });
  }

  private closeUser(userId: number): void {
    for (const socket of [...(this.byUser.get(userId) ?? [])]) {
      this.remove(socket);
      if (socket.readyState === READY) socket.close(SESSION_ENDED_CLOSE, 'Session ended');
      else socket.terminate();
    }
  }

  /** Stops the heartbeat and Redis; closes sockets still open with 1001 (going away). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    clearTimeout(this.retry);
    for (const waiter of this.waiters.splice(0)) waiter.reject(new Error('notifier closed'));
    for (const socket of this.connections.keys()) {
      if (socket.readyState === READY) socket.close(GOING_AWAY_CLOSE, 'Server shutting down');
    }
    this.publisher?.disconnect();
    this.subscriber?.disconnect();
  }

  private isReady(): boolean {
    if (!this.publisher) return true;
    return !this.closed && this.subscribed && this.publisher.status === 'ready';
  }

  private settle(): void {
    if (!this.isReady()) return;
    for (const waiter of this.waiters.splice(0)) waiter.resolve();
  }

  /** Logs the first sign of an outage of one connection; the rest of it is quiet. */
  private outage(role: RedisRole, error?: Error & { code?: string }): void {
    if (this.closed || this.down.has(role)) return;
    this.down.add(role);
    this.log?.warn(
      { redis: role, err: error && { message: error.message, code: error.code } },
      role === 'subscriber'
        ? 'notifications: Redis subscription down, events of other instances do not arrive until it holds again'
        : 'notifications: Redis publisher down, events reach only the sockets of this instance',
    );
  }

  /**
   * SUBSCRIBE on the subscriber connection of `generation`. Redis answers it the same when
   * already subscribed. A failure on a connection that stays up (a timeout, a refusal) is
   * retried with backoff; a connection that closes starts over once it is ready again.
   */
  private subscribe(generation: number, failures: number): void {
    const subscriber = this.subscriber!;
    if (this.closed || generation !== this.generation || subscriber.status !== 'ready') return;
    subscriber.subscribe(this.channel).then(
      () => {
        if (this.closed || generation !== this.generation) return;
        this.subscribed = true;
        const again = this.down.delete('subscriber') || this.hasSubscribed;
        this.hasSubscribed = true;
        this.log?.info(
          { redis: 'subscriber', channel: this.channel },
          again
            ? 'notifications: Redis subscription holds again'
            : 'notifications: Redis subscription in place',
        );
        this.settle();
      },
      (error: Error) => {
        if (this.closed || generation !== this.generation) return;
        this.outage('subscriber', error);
        const delay = Math.min(200 * 2 ** failures, SUBSCRIBE_RETRY_MAX_MS);
        this.retry = setTimeout(() => this.subscribe(generation, failures + 1), delay);
        this.retry.unref();
      },
    );
  }

  private deliver(users: number[], message: NotificationMessage, staff = false): void {
    const sockets = new Set<WebSocket>(staff ? this.staffSockets : []);
    for (const userId of users)
      for (const socket of this.byUser.get(userId) ?? []) sockets.add(socket);
    if (sockets.size === 0) return;
    const text = JSON.stringify(message);
    for (const socket of sockets) {
      if (socket.readyState !== READY) continue;
      // A client that reads nothing must not make the server buffer without end.
      if (socket.bufferedAmount > MAX_BUFFERED_BYTES) socket.terminate();
      else socket.send(text);
    }
  }

  private receive(text: string): void {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(text) as Envelope;
    } catch (error) {
      this.fanoutErrors++;
      this.log?.warn({ err: error }, 'unreadable notification from redis');
      return;
    }
    if (envelope.origin === this.origin) return;
    if (Array.isArray(envelope.close)) {
      for (const userId of envelope.close) if (Number.isInteger(userId)) this.closeUser(userId);
    }
    const staff = envelope.staff === true;
    if (!Array.isArray(envelope.users) || !envelope.message) return;
    if (envelope.users.length === 0 && !staff) return;
    this.deliver(envelope.users, envelope.message, staff);
  }

  private remove(socket: WebSocket): void {
    const connection = this.connections.get(socket);
    if (!connection) return;
    this.connections.delete(socket);
    this.staffSockets.delete(socket);
    const sockets = this.byUser.get(connection.userId);
    sockets?.delete(socket);
    if (sockets?.size === 0) this.byUser.delete(connection.userId);
  }

  /**
   * One heartbeat (the timer's; tests beat at moments of their choosing): a socket that
   * missed the last ping is gone (a dead peer sends no close frame), the others are pinged.
   */
  beat(): void {
    for (const [socket, connection] of this.connections) {
      if (!connection.alive) {
        socket.terminate();
        this.remove(socket);
        continue;
      }
      connection.alive = false;
      if (socket.readyState === READY) socket.ping();
    }
    void this.checkSessions();
  }

  /**
   * Closes the sockets whose session ended since they opened, and updates who is staff (one
   * query for all users connected here). Resolves when done; a failure is logged once and retried next beat.
   */
  async checkSessions(): Promise<void> {
    if (!this.generations || this.checking || this.closed) return;
    const users = new Set<number>();
    for (const connection of this.connections.values()) {
      if (connection.generation !== undefined) users.add(connection.userId);
    }
    if (users.size === 0) return;
    this.checking = true;
    try {
      const current = await this.generations([...users]);
      if (this.checkFailed) this.log?.info('notifications: session check works again');
      this.checkFailed = false;
      for (const [socket, connection] of [...this.connections]) {
        if (connection.generation === undefined) continue;
        const user = current.get(connection.userId);
        if (user?.generation === connection.generation) {
          // A role granted or revoked since the socket opened (or the last beat).
          connection.staff = user.staff;
          if (user.staff) this.staffSockets.add(socket);
          else this.staffSockets.delete(socket);
          continue;
        }
        this.remove(socket);
        if (socket.readyState === READY) socket.close(SESSION_ENDED_CLOSE, 'Session ended');
        else socket.terminate();
      }
    } catch (error) {
      if (!this.checkFailed) {
        this.log?.warn({ err: error }, 'notifications: session check failed, retried next beat');
      }
      this.checkFailed = true;
    } finally {
      this.checking = false;
    }
  }
}

/**
 * From a process that holds no sockets (`ordering-admin`): tells every instance through
 * Redis to close the users' sockets (sessions ended), and waits until Redis took the message,
 * at most `timeoutMs`. Rejects when Redis did not take it in time: the sockets then close
 * at their instance's next heartbeat (Notifier.generations).
 */
export async function publishSessionsEnded(
  redisUrl: string,
  userIds: number[],
  timeoutMs = 5000,
  channel = DEFAULT_CHANNEL,
): Promise<void> {
  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  const envelope: Envelope = { origin: randomUUID(), users: [], close: userIds };
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      redis.connect().then(() => redis.publish(channel, JSON.stringify(envelope))),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    redis.disconnect();
  }
}
