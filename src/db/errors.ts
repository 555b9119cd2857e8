/**
 * How database failures reach the HTTP layer: anything that says "the database is not there
 * (or did not answer in time)", or "this connection no longer reaches a writable primary" (a
 * failover), is one DatabaseUnavailable, answered 503 `database_unavailable` with
 * Retry-After; everything else stays a server error, a wrong setting included.
 */
export class DatabaseUnavailable extends Error {
  constructor(
    message: string,
    readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'DatabaseUnavailable';
  }
}

/** The database answered but cannot write: a standby, or a primary being demoted. */
export class DatabaseReadOnly extends DatabaseUnavailable {
  constructor() {
    super('the database is read-only (a standby, or a primary being demoted)');
    this.name = 'DatabaseReadOnly';
  }
}

/** The client of the request went away before it needed the database: nothing was run. */
export class RequestAborted extends Error {
  constructor() {
    super('the client closed the request before it reached the database');
    this.name = 'RequestAborted';
  }
}

// SQLSTATE classes and codes of conventions a client can retry: the server is gone, going,
// not yet back, out of connections, or a statement/lock/idle bound ran out.
const UNAVAILABLE_CODES = new Set([
  '57P01', // admin_shutdown (pg_ctl stop/restart -m fast, pg_terminate_backend)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down, in recovery)
  '57P05', // idle_session_timeout
  '53300', // too_many_connections
  '57014', // query_canceled: statement_timeout
  '55P03', // lock_not_available: lock_timeout
  '25P03', // idle_in_transaction_session_timeout
  // read_only_sql_transaction: the connection reaches a standby or a demoted primary (a
  // failover, or an endpoint still naming the old primary), e.g. "cannot execute
  // pg_current_xact_id() during recovery" on the transaction's opening batch.
  '25006',
]);
/** The connection can no longer write (see '25006' above): it is discarded, never reused. */
const READ_ONLY_CODES = new Set(['25006']);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
]);
// pg and pg-pool report a lost connection, and a wait or read that ran out, by message only.
const GONE = /connection terminated|connection ended|not queryable|no answer from the database/i;
// The pool's own bound on an answer (pool.ts): the server may still be running the statement.
// PgBouncer's query_wait_timeout is a wait that ran out too.
const NO_ANSWER = /no answer from the database|query read timeout|query_wait_timeout/i;
const RAN_OUT =
  /timeout exceeded when trying to connect|query read timeout|server closed the connection/i;

/** The error and those it wraps (drizzle wraps pg's), a few levels deep. */
function* causes(error: unknown): Generator<unknown> {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    yield e;
  }
}

const codeOf = (e: unknown) => {
  const code = (e as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
};

/**
 * Refusals that retrying cannot cure: a wrong setting (DATABASE_URL's user, password or
 * database, or a pooler refusing what the client sends). The service fails fast on these at
 * start instead of waiting for a database that will never accept it.
 */
const CONFIGURATION_CODES: Record<string, string> = {
  '28P01': 'authentication failed (wrong password)',
  '28000': 'authorization refused (user unknown or not allowed by pg_hba.conf)',
  '3D000': 'the database does not exist',
  '42501': 'permission denied',
};
// PgBouncer answers its own refusals with 08P01 (protocol violation), like a lost server:
// these messages tell a setting apart from a server that is not there yet.
const POOLER_REFUSALS: [RegExp, string][] = [
  [
    /unsupported startup parameter/i,
    'the pooler refuses a startup parameter (behind a transaction pooler set DATABASE_POOLER=transaction)',
  ],
  [/no such database|database ".*" does not exist/i, 'the database does not exist'],
  [/no such user|password authentication failed|SASL authentication failed/i, 'login refused'],
];

/** The cause, when the error is a configuration error (see CONFIGURATION_CODES). */
export function configurationError(error: unknown): string | undefined {
  for (const e of causes(error)) {
    const code = codeOf(e);
    const message = e instanceof Error ? e.message : '';
    if (code && CONFIGURATION_CODES[code]) {
      return `${CONFIGURATION_CODES[code]} (SQLSTATE ${code}: ${message})`;
    }
    if (code === '08P01') {
      const refusal = POOLER_REFUSALS.find(([pattern]) => pattern.test(message));
      if (refusal) return `${refusal[1]} (SQLSTATE 08P01: ${message})`;
    }
  }
  return undefined;
}

/**
 * True when the error (or one it wraps) means the database is unavailable. PgBouncer's own
 * refusals (08P01: "server login has been failing", "no more connections allowed",
 * "pgbouncer cannot connect to server", "query_wait_timeout", "server conn crashed?") are;
 * its configuration refusals (configurationError) are not: no retry cures them.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (configurationError(error)) return false;
  for (const e of causes(error)) {
    if (e instanceof DatabaseUnavailable) return true;
    const code = codeOf(e);
    if (code && (code.startsWith('08') || UNAVAILABLE_CODES.has(code) || NETWORK_CODES.has(code))) {
      return true;
    }
    if (e instanceof Error && (GONE.test(e.message) || RAN_OUT.test(e.message))) return true;
  }
  return false;
}

/** True when the connection itself is gone (the fate of a statement sent on it is unknown). */
export function isConnectionLost(error: unknown): boolean {
  for (const e of causes(error)) {
    const code = codeOf(e);
    if (code && (code.startsWith('08') || code.startsWith('57P') || NETWORK_CODES.has(code))) {
      return true;
    }
    if (e instanceof Error && GONE.test(e.message)) return true;
  }
  return false;
}

/**
 * True when the connection that saw the error must be discarded, not returned to the pool:
 * it is lost, or it reaches a server that cannot write (a connection to a demoted primary
 * stays read-only for its whole life; a fresh one goes where the endpoint now points).
 */
export function isConnectionUnusable(error: unknown): boolean {
  if (isConnectionLost(error)) return true;
  for (const e of causes(error)) {
    const code = codeOf(e);
    if (code && READ_ONLY_CODES.has(code)) return true;
  }
  return false;
}

/**
 * True when a read's connection was cut before its answer came (a failover, a restart, a
 * terminated backend): a read can be sent again on a fresh connection. Not when the pool's
 * own bound on the answer ran out (retrying would double the bound on a frozen server).
 */
export function isCutBeforeAnswer(error: unknown): boolean {
  if (!isConnectionLost(error) || configurationError(error)) return false;
  for (const e of causes(error)) {
    if (e instanceof Error && NO_ANSWER.test(e.message)) return false;
  }
  return true;
}

/**
 * True when a read that was cut by a failover may be sent again: the database is not
 * reachable yet (refused, cut, starting, the pooler's refused server login), as opposed to a
 * bound that ran out (the pool's wait, the answer's bound, statement_timeout, lock_timeout,
 * too many connections), which waiting longer would only repeat.
 */
export function isUnreachableForNow(error: unknown): boolean {
  if (!isDatabaseUnavailable(error)) return false;
  for (const e of causes(error)) {
    const code = codeOf(e);
    if (code === '57014' || code === '55P03' || code === '53300' || code === '25P03') return false;
    // PgBouncer's max_client_conn: a limit, like 53300, not an outage.
    if (e instanceof Error && /no more connections allowed/i.test(e.message)) return false;
    if (e instanceof Error && (NO_ANSWER.test(e.message) || RAN_OUT.test(e.message))) {
      // "server closed the connection" is a cut, not a bound.
      if (!/server closed the connection/i.test(e.message)) return false;
    }
  }
  return true;
}

/** True when a value went past its column's type (SQLSTATE 22003, numeric_value_out_of_range). */
export function isOutOfRange(error: unknown): boolean {
  for (const e of causes(error)) if (codeOf(e) === '22003') return true;
  return false;
}
