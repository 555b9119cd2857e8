import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import {
  DatabaseReadOnly,
  isConnectionLost,
  isConnectionUnusable,
  isCutBeforeAnswer,
  isUnreachableForNow,
  RequestAborted,
} from './errors.js';
import { requestScope } from './scope.js';

/**
 * The PostgreSQL pool, made to survive an unreliable server: a restart, a cut connection,
 * a server that stops answering. What it adds to pg.Pool:
 * - every connection keeps an error listener for its whole life (pg-pool only listens while
 *   a connection is idle, so a connection dropped mid-transaction crashed the process);
 * - a statement that gets no answer at all (frozen server, dropped packets, where the
 *   server's own statement_timeout cannot act) drops its connection after a bound;
 * - a request whose client has gone away does not take a connection;
 * - a connection that saw an error meaning "this no longer reaches a writable primary" (lost,
 *   or read-only: a failover) is discarded, as is one whose transaction start was refused;
 *   a read cut before its answer runs once more on a fresh connection;
 * - a commit whose answer was lost is looked up by transaction id (pg_xact_status), so an
 *   answer the service gives is true: committed, or nothing changed. Single-statement
 *   writes run inside such a transaction for the same reason;
 * - the session settings the fault bounds rely on: on a direct connection startup
 *   parameters, which hold for the whole session; behind a transaction pooler (which refuses
 *   startup parameters, and where the next transaction may run on another server
 *   connection) set in every transaction (`set_config(…, true)` in its first round trip),
 *   and a single read runs in a transaction of its own (in one round trip all the same).
 */
export interface PoolSettings {
  url: string;
  size: number;
  /** Bound on the wait for a connection: the pool's queue plus opening one. */
  acquireTimeoutMs: number;
  /** The server's statement_timeout (and idle-in-transaction bound). */
  statementTimeoutMs: number;
  /** DATABASE_POOLER=transaction: `url` is a transaction pooler (no session state of ours). */
  pooled?: boolean;
  /** Called with errors of connections that are not in use by a query (logged, not thrown). */
  onConnectionError?: (error: Error) => void;
  /** Called when a commit's outcome stays unknown (the database did not come back in time). */
  onUnknownCommit?: (xid: string, error: unknown) => void;
}

/** Past the server's statement_timeout, how long the client waits before it drops the connection. */
const ANSWER_MARGIN_MS = 1000;

type CommitStatus = 'committed' | 'aborted' | 'unknown';

interface ClientExtras {
  answerTimeoutMs: number;
  /**
   * `set_config(…, true) as s0, …`: the session settings for the transaction being begun,
   * behind a transaction pooler; empty on a direct connection (startup parameters).
   */
  settings: string;
  /**
   * Behind a pooler, when every server connection sampled at start already had the four
   * settings as its defaults (ALTER ROLE/DATABASE … SET: PgBouncer's server connections get
   * them at login): single reads are then sent alone, without the settings (issue 33).
   */
  defaultsHold: boolean;
  commitStatus: (xid: string) => Promise<CommitStatus>;
  onConnectionError?: (error: Error) => void;
}

type QueryConfig = string | { text: string };
const textOf = (config: unknown): string =>
  typeof config === 'string' ? config : ((config as { text?: string })?.text ?? '');
const isCommit = (config: unknown) => /^\s*commit\s*;?\s*$/i.test(textOf(config));
const isBegin = (config: unknown) =>
  /^\s*(begin|start\s+transaction)\b[^;]*;?\s*$/i.test(textOf(config));
const isRollback = (config: unknown) => /^\s*rollback\s*;?\s*$/i.test(textOf(config));
/** A write by its text; or a call that stands for one (`write`: a function behind a pooler). */
export const isWrite = (config: unknown) =>
  (config as { write?: boolean })?.write === true ||
  /^\s*(insert|update|delete|with|merge)\b/i.test(textOf(config));

const COMMITTED = { command: 'COMMIT', rowCount: null, rows: [], fields: [] };

class GuardedClient extends pg.Client {
  private readonly extras: ClientExtras;
  /** The open transaction's id, learned with its BEGIN (so COMMIT needs no extra round trip). */
  private xid: string | undefined;
  /**
   * Set once the connection must not be lent again (see isConnectionUnusable, and a refused
   * transaction start): its release destroys it.
   */
  unusable = false;
  /** Set by the pool while the connection is lent: gives it back (destroyed). */
  abandon: ((error: Error) => void) | undefined;

  constructor(config: pg.ClientConfig & { extras: ClientExtras }) {
    super(config);
    this.extras = config.extras;
    // For the connection's whole life: pg-pool removes its own listener while the client is
    // checked out, and an 'error' event with no listener ends the process.
    this.on('error', (error) => this.extras.onConnectionError?.(error));
  }

  // biome-ignore lint/suspicious/noExplicitAny: pg's query has a dozen overloads; this wraps them all
  override query(...args: any[]): any {
    if (typeof args.at(-1) !== 'function') {
      if (isBegin(args[0])) return this.beginKnowingXid(args[0]);
      if (isCommit(args[0])) return this.verifiedCommit(args[0]);
      if (isRollback(args[0])) this.xid = undefined;
    }
    return this.timed(args);
  }

  /**
   * BEGIN, the session settings for this transaction and its id in one round trip (one
   * simple-protocol message), so a commit whose answer is lost can be looked up. The id is
   * assigned at BEGIN: a read-only transaction then writes a commit record too, a small price
   * for one round trip less.
   */
  private async beginKnowingXid(config: QueryConfig): Promise<unknown> {
    const text = textOf(config).trim().replace(/;$/, '');
    let results: pg.QueryResult[];
    try {
      results = await this.timed([`${text}; ${this.settingsAndXid()}`]);
    } catch (error) {
      // Refused (a standby: "cannot execute pg_current_xact_id() during recovery"): the BEGIN
      // may have run, leaving an aborted transaction open, and drizzle sends BEGIN before the
      // try/finally that releases the connection. Given back here, destroyed, or every
      // refusal would keep one connection `idle in transaction (aborted)` for good.
      this.unusable = true;
      this.abandon?.(error as Error);
      throw error;
    }
    this.xid = results[1].rows[0].xid;
    return results[0];
  }

  /** The select that follows BEGIN: the settings for the transaction (behind a pooler), its id. */
  private settingsAndXid(): string {
    const settings = this.extras.defaultsHold ? '' : this.extras.settings;
    const columns = [settings, 'pg_current_xact_id()::text as xid'].filter(Boolean);
    return `select ${columns.join(', ')}`;
  }

  /**
   * BEGIN, the session settings for this transaction, its id and the transaction's first
   * statement in one round trip (issue 19: a round trip less for every verified write). Safe
   * as BEGIN alone: no COMMIT is sent before this answer has come, so an answer lost here
   * means an open transaction that ends with its connection. A statement that fails leaves
   * the transaction aborted: the caller rolls back, as after any failed statement.
   */
  async beginWith(config: QueryConfig, values?: unknown[]): Promise<pg.QueryResult> {
    const [, begun, result] = await this.batch(['begin', this.settingsAndXid()], config, values);
    this.xid = begun.rows[0].xid;
    return result;
  }

  /**
   * A single read behind a pooler, under the session settings for its transaction only: the
   * settings and the read in one round trip, in one transaction (the protocol's implicit one,
   * which ends at the batch's Sync, and the settings with it). No transaction id: a read needs
   * no verified commit.
   */
  async readInTransaction(config: QueryConfig, values?: unknown[]): Promise<pg.QueryResult> {
    return (await this.batch([`select ${this.extras.settings}`], config, values))[1];
  }

  /**
   * A single read with the plan made once for its prepared statement: the setting for this
   * transaction only and the read in one round trip, in one implicit transaction. The setting
   * ends with it whatever happens, so no other statement on the connection is planned this way.
   */
  async readWithGenericPlan(config: QueryConfig, values?: unknown[]): Promise<pg.QueryResult> {
    const plan = "select set_config('plan_cache_mode', 'force_generic_plan', true)";
    return (await this.batch([plan], config, values))[1];
  }

  /** `before` (statements without parameters), then the statement: one round trip. */
  private batch(
    before: string[],
    config: QueryConfig,
    values?: unknown[],
  ): Promise<pg.QueryResult[]> {
    return new Promise((resolve, reject) => {
      this.timed([
        new Batch(before, config, values),
        (error: Error | null, results: pg.QueryResult[]) =>
          error ? reject(error) : resolve(results),
      ]);
    });
  }

  /** A statement with a bound on waiting for its answer; past it the connection is dropped. */
  // biome-ignore lint/suspicious/noExplicitAny: see query
  private timed(args: any[]): any {
    const ms = this.extras.answerTimeoutMs;
    let timer: NodeJS.Timeout | undefined = setTimeout(() => {
      timer = undefined;
      // Nothing else may be sent on a connection whose answer is still owed: drop it (the
      // statement fails, the pool replaces the connection).
      // biome-ignore lint/suspicious/noExplicitAny: pg's connection is not in its typings
      (this as any).connection.stream.destroy(
        new Error(`no answer from the database within ${ms} ms`),
      );
    }, ms);
    const clear = () => {
      if (timer) clearTimeout(timer);
      timer = undefined;
    };
    const failed = (error: unknown) => {
      clear();
      if (isConnectionUnusable(error)) this.unusable = true;
    };
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last];
      args[last] = (error: unknown, result: unknown) => {
        if (error) failed(error);
        else clear();
        callback(error, result);
      };
      return super.query(...(args as [string]));
    }
    // biome-ignore lint/suspicious/noExplicitAny: a promise, or a submittable (cursor, stream)
    const result: any = super.query(...(args as [string]));
    if (result && typeof result.then === 'function') result.then(clear, failed);
    else if (result && typeof result.once === 'function') {
      result.once('end', clear);
      result.once('error', failed);
    } else clear();
    return result;
  }

  /**
   * COMMIT, knowing which transaction it commits: when the connection is lost before the
   * answer arrives, the database is asked whether that transaction committed.
   */
  private async verifiedCommit(config: QueryConfig): Promise<unknown> {
    let xid: string | null | undefined = this.xid;
    this.xid = undefined;
    if (xid === undefined) {
      const { rows } = await this.timed(['select pg_current_xact_id_if_assigned()::text as xid']);
      xid = rows[0]?.xid ?? null;
    }
    try {
      return await this.timed([config]);
    } catch (error) {
      // A read-only transaction changed nothing; a refused commit is an answer.
      if (!xid || !isConnectionLost(error)) throw error;
      if ((await this.extras.commitStatus(xid)) === 'committed') return COMMITTED;
      throw error;
    }
  }
}

/**
 * pg's query of one statement (`config`), preceded in the same batch of the extended protocol
 * by `before` (statements without parameters: Parse, Bind, Describe, Execute each), then the
 * statement as pg sends it (Parse if not yet prepared, Bind, Describe, Execute) and one Sync.
 * The server runs them in order, in one transaction (the protocol's implicit one up to the
 * Sync, unless `before` begins one), and skips the rest after a failure. The answers come as
 * one result each, in order.
 */
class Batch extends pg.Query {
  // pg's own (not in its typings).
  declare readonly name: string | undefined;
  declare readonly text: string;
  declare readonly types: unknown;
  declare hasBeenParsed: (connection: PgConnection) => boolean;

  constructor(
    private readonly before: string[],
    config: QueryConfig,
    values?: unknown[],
  ) {
    // The values come as an argument or in the config (as pg takes them); the extended
    // protocol even without them (one batch, one Sync).
    const statement = typeof config === 'string' ? { text: config } : config;
    super({
      ...statement,
      values: values ?? (statement as pg.QueryConfig).values,
      queryMode: 'extended',
    } as pg.QueryConfig);
  }

  // pg's own step that writes the statement's messages (inside its cork/uncork).
  prepare(connection: PgConnection): void {
    // A named statement not yet prepared is parsed first, as pg would (its name then counts
    // as submitted, and pg sends no second Parse): pg takes every ParseComplete of a query
    // as its statement's, so one of `before` would mark the name prepared even when its own
    // Parse then fails, and every later run would bind a statement that does not exist.
    if (this.name && !this.hasBeenParsed(connection)) {
      connection.parse({ text: this.text, name: this.name, types: this.types });
      connection.submittedNamedStatements[this.name] = this.text;
    }
    for (const text of this.before) {
      connection.parse({ text });
      connection.bind({});
      connection.describe({ type: 'P' });
      connection.execute({});
    }
    (pg.Query.prototype as unknown as { prepare(c: PgConnection): void }).prepare.call(
      this,
      connection,
    );
  }
}

/** The part of pg's connection (not in its typings) that writes protocol messages. */
interface PgConnection {
  parse(message: { text: string; name?: string; types?: unknown }): void;
  submittedNamedStatements: Record<string, string>;
  bind(message: object): void;
  describe(message: { type: 'P' }): void;
  execute(message: object): void;
}

/**
 * A checked-out connection goes back to the pool (to be discarded) as soon as it is lost or
 * its transaction start is refused, and a second release is a no-op: drizzle sends BEGIN
 * before its try/finally, so such a connection was never released and the pool ran dry. A
 * connection that cannot be used again (GuardedClient.unusable) is destroyed whoever
 * releases it, drizzle included (it releases without an error).
 */
function lent(client: pg.PoolClient): pg.PoolClient {
  const guarded = client as unknown as GuardedClient;
  const release = client.release;
  let released = false;
  const lost = () => done(new Error('connection lost'));
  const done = (error?: Error | boolean) => {
    if (released) return;
    released = true;
    client.removeListener('end', lost);
    guarded.abandon = undefined;
    release(error || (guarded.unusable ? new Error('connection discarded') : undefined));
  };
  client.once('end', lost);
  guarded.abandon = done;
  client.release = done;
  return client;
}

/** The readiness check's question: can this connection write? (a standby, a read-only session) */
export const WRITABLE_CHECK =
  "select pg_is_in_recovery() as recovery, current_setting('transaction_read_only') = 'on' as read_only";

/**
 * The session settings the service relies on, by name.
 * - statement_timeout: a statement that runs too long is cancelled by the server.
 * - idle_in_transaction_session_timeout: a transaction left idle (its instance died between
 *   statements) frees its locks.
 * - TimeZone UTC: timestamptz comes back as `… +00` text (clock.ts reads any offset, and the
 *   SQL names its zone where it cuts days; this keeps the text plain).
 * - No parallel plans: a request's statement is short, and parallel workers started per
 *   statement cost more than they save when every connection is busy (seen at 1M carts: a
 *   store's page of carts fell to 50 per second).
 */
export function sessionSettings(statementTimeoutMs: number): [string, string][] {
  return [
    ['statement_timeout', String(statementTimeoutMs)],
    ['idle_in_transaction_session_timeout', String(statementTimeoutMs)],
    ['TimeZone', 'UTC'],
    ['max_parallel_workers_per_gather', '0'],
  ];
}

/**
 * The operator's step behind a pooler (docs/operations.md "Behind a pooler"): the session
 * settings as the service role's defaults, which PgBouncer's server connections get at login;
 * `GuardedPool.adoptServerDefaults` then finds them and single reads go without them.
 * `target`: `ROLE CURRENT_USER` (the role that runs it) or `DATABASE <name>`.
 */
export function sessionDefaultsSql(
  statementTimeoutMs: number,
  target = 'ROLE CURRENT_USER',
): string[] {
  return sessionSettings(statementTimeoutMs).map(
    ([name, value]) => `ALTER ${target} SET ${name} = '${value}'`,
  );
}

/** `set_config(…, true), …`: the settings for the current transaction only. */
const settingsForTransaction = (settings: [string, string][]) =>
  settings.map(([name, value], i) => `set_config('${name}', '${value}', true) as s${i}`).join(', ');

export class GuardedPool extends pg.Pool {
  private readonly extras: ClientExtras;

  constructor(private readonly settings: PoolSettings) {
    const session = sessionSettings(settings.statementTimeoutMs);
    const extras: ClientExtras = {
      answerTimeoutMs: settings.statementTimeoutMs + ANSWER_MARGIN_MS,
      // Direct: the startup parameters hold for the whole session.
      settings: settings.pooled ? settingsForTransaction(session) : '',
      defaultsHold: false,
      commitStatus: (xid) => this.commitStatus(xid),
      onConnectionError: settings.onConnectionError,
    };
    super({
      connectionString: settings.url,
      max: settings.size,
      connectionTimeoutMillis: settings.acquireTimeoutMs,
      keepAlive: true,
      // Direct: the settings for the whole session too (single reads run outside a
      // transaction). A pooler refuses startup parameters (and would not keep them).
      options: settings.pooled
        ? undefined
        : session.map(([name, value]) => `-c ${name}=${value}`).join(' '),
      Client: GuardedClient,
      extras,
    } as unknown as pg.PoolConfig);
    this.extras = extras;
    // Errors of idle connections (the server restarting): the pool replaces them.
    this.on('error', (error) => settings.onConnectionError?.(error));
  }

  /**
   * Behind a pooler: do the server connections already start with the session settings the
   * service needs (`ALTER ROLE … SET` or `ALTER DATABASE … SET`, which PgBouncer's server
   * connections get at login)? Asked on `samples` connections at once, each in a transaction
   * of its own so that the pooler lends each a different server connection; `reset_val` is
   * the connection's default, whatever a transaction set. When all hold, single reads go
   * without the settings (the BEGIN of a transaction too); when not, nothing changes.
   * The answer is kept: after an operator changes the defaults, instances are restarted.
   */
  async adoptServerDefaults(samples = 3): Promise<boolean> {
    if (!this.settings.pooled) return false;
    const wanted = new Map(sessionSettings(this.settings.statementTimeoutMs));
    const names = [...wanted.keys()].map((name) => `'${name}'`).join(', ');
    const clients = await Promise.all(
      Array.from({ length: Math.min(samples, this.settings.size) }, () => this.acquire(false)),
    );
    let hold = true;
    try {
      await Promise.all(clients.map((client) => client.query('begin')));
      for (const client of clients) {
        const { rows } = await client.query<{ name: string; reset_val: string }>(
          `select name, reset_val from pg_settings where name in (${names})`,
        );
        if (rows.length !== wanted.size) hold = false;
        for (const { name, reset_val } of rows) {
          if (wanted.get(name) !== reset_val) hold = false;
        }
      }
    } finally {
      for (const client of clients) {
        await client.query('commit').catch(() => {});
        client.release();
      }
    }
    this.extras.defaultsHold = hold;
    return hold;
  }

  // biome-ignore lint/suspicious/noExplicitAny: pg-pool's overloads (its own query uses the callback form)
  override connect(callback?: any): any {
    if (callback) return super.connect(callback);
    // drizzle takes a connection of its own only for a transaction.
    return this.acquire(true);
  }

  // biome-ignore lint/suspicious/noExplicitAny: pg-pool's overloads
  override query(config: any, values?: any, callback?: any): any {
    if (typeof values === 'function' || typeof callback === 'function') {
      return super.query(config, values, callback);
    }
    if ((config as { unverifiedWrite?: boolean })?.unverifiedWrite) {
      return this.readOnce(config, values, true);
    }
    return isWrite(config) ? this.writeOnce(config, values) : this.readOnce(config, values);
  }

  /**
   * A connection for the request being served, unless its client has gone away before the
   * request started to write. `write`: the connection is for a transaction or a write, after
   * which the request's work is no longer abandoned.
   */
  private async acquire(write: boolean): Promise<pg.PoolClient> {
    const scope = requestScope();
    const signal = scope && !scope.writing ? scope.signal : undefined;
    if (signal?.aborted) throw new RequestAborted();
    if (scope && write) scope.writing = true;
    const pending = super.connect().then(lent);
    if (!signal) return pending;
    return new Promise<pg.PoolClient>((resolve, reject) => {
      const onAbort = () => {
        reject(new RequestAborted());
        pending.then(
          (client) => client.release(),
          () => {},
        );
      };
      signal.addEventListener('abort', onAbort, { once: true });
      pending.then(
        (client) => {
          signal.removeEventListener('abort', onAbort);
          if (!signal.aborted) resolve(client);
        },
        (error) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  }

  /**
   * One statement outside a transaction of ours; `write`: one that writes (unverified). A read
   * whose connection was cut before its answer came (a failover, a restart), or that found
   * the database unreachable for now (a switchover: HAProxy has not yet marked the new primary
   * up, PgBouncer's server login fails), runs again on a fresh connection (a cut one is
   * discarded) with a growing pause, within the pool's wait plus the statement bound, the
   * worst case a read has anyway; then the last error is the answer (503). Reading twice
   * changes nothing. Never a write (its fate is unknown), and never after a bound ran out
   * (a frozen server, a full pool: waiting again would only double the wait).
   */
  private async readOnce(
    config: QueryConfig,
    values?: unknown[],
    write = false,
  ): Promise<pg.QueryResult> {
    try {
      return await this.statementOnce(config, values, write);
    } catch (error) {
      if (write || !(isCutBeforeAnswer(error) || isUnreachableForNow(error))) throw error;
    }
    // Within a read's own worst case (the pool's wait, then the statement bound).
    const deadline = Date.now() + this.settings.acquireTimeoutMs + this.settings.statementTimeoutMs;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.statementOnce(config, values, false);
      } catch (error) {
        const pause = Math.min(50 * 2 ** (attempt - 1), 500);
        if (!isUnreachableForNow(error) || Date.now() + pause >= deadline) throw error;
        await delay(pause);
      }
    }
  }

  /**
   * Can the database write? For the readiness check: a standby (pg_is_in_recovery) or a
   * read-only session (a primary being demoted, a managed service's read-only mode) is not
   * ready; that connection is discarded, so the next check opens a fresh one.
   */
  async checkWritable(): Promise<void> {
    const client = await this.acquire(false);
    try {
      const { rows } = await client.query(WRITABLE_CHECK);
      if (rows[0]?.recovery || rows[0]?.read_only) {
        const error = new DatabaseReadOnly();
        client.release(error);
        throw error;
      }
      client.release();
    } catch (error) {
      client.release(isConnectionUnusable(error) ? (error as Error) : undefined);
      throw error;
    }
  }

  private async statementOnce(
    config: QueryConfig,
    values: unknown[] | undefined,
    write: boolean,
  ): Promise<pg.QueryResult> {
    const client = await this.acquire(write);
    try {
      const guarded = client as unknown as GuardedClient;
      const result = this.settings.pooled
        ? this.extras.defaultsHold
          ? await client.query(config as string, values)
          : await guarded.readInTransaction(config, values)
        : (config as { genericPlan?: boolean }).genericPlan
          ? await guarded.readWithGenericPlan(config, values)
          : await client.query(config as string, values);
      client.release();
      return result;
    } catch (error) {
      // Only a broken or read-only connection is thrown away; a refused statement leaves it usable.
      client.release(isConnectionUnusable(error) ? (error as Error) : undefined);
      throw error;
    }
  }

  /**
   * One write statement in a transaction of its own, so its commit can be verified: BEGIN
   * and the statement in one round trip (beginWith), then COMMIT.
   */
  private writeOnce(config: QueryConfig, values?: unknown[]): Promise<pg.QueryResult> {
    return this.transaction((client) => client.beginWith(config, values));
  }

  /**
   * `work` on one connection inside BEGIN … COMMIT (verified); rolled back when it throws. A
   * lost connection goes back to be discarded.
   */
  inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.transaction(async (client) => {
      await client.query('begin');
      return work(client);
    });
  }

  /** `begun` (BEGIN and the work) on one connection, then COMMIT, or ROLLBACK when it throws. */
  private async transaction<T>(
    begun: (client: pg.PoolClient & GuardedClient) => Promise<T>,
  ): Promise<T> {
    const client = (await this.acquire(true)) as pg.PoolClient & GuardedClient;
    try {
      const result = await begun(client);
      await client.query('commit');
      client.release();
      return result;
    } catch (error) {
      // Lost, read-only, or its start refused (already given back): destroyed, no rollback.
      if (client.unusable || isConnectionUnusable(error)) client.release(error as Error);
      else {
        await client.query('rollback').catch(() => {});
        client.release();
      }
      throw error;
    }
  }

  /** What became of a transaction whose commit answer was lost, asked until the bound. */
  private async commitStatus(xid: string): Promise<CommitStatus> {
    const deadline = Date.now() + this.settings.acquireTimeoutMs + this.settings.statementTimeoutMs;
    for (let attempt = 1; ; attempt++) {
      try {
        const { rows } = await super.query('select pg_xact_status($1::xid8) as status', [xid]);
        const status = rows[0]?.status;
        if (status === 'committed' || status === 'aborted') return status;
        // 'in progress': the old session has not yet finished committing or aborting.
      } catch {
        // Still unreachable: ask again.
      }
      if (Date.now() >= deadline) {
        this.settings.onUnknownCommit?.(xid, undefined);
        return 'unknown';
      }
      await delay(Math.min(25 * attempt, 250));
    }
  }
}
