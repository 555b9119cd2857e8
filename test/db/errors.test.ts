import { describe, expect, it } from 'vitest';
import {
  configurationError,
  isConnectionUnusable,
  isCutBeforeAnswer,
  isDatabaseUnavailable,
} from '../../src/db/errors.js';

/** An error as node-postgres makes it from a server's (or PgBouncer's) ErrorResponse. */
const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });
/** drizzle wraps the driver's error. */
const wrapped = (cause: Error) => Object.assign(new Error('Failed query: …'), { cause });

/**
 * Which errors mean "this connection no longer reaches a writable primary" (issue 30): the
 * messages are those of PostgreSQL 15 and PgBouncer 1.18 (its own refusals are all 08P01).
 */
describe('database errors in a failover', () => {
  const unavailable: [string, string][] = [
    ['25006', 'cannot execute pg_current_xact_id() during recovery'],
    ['25006', 'cannot execute INSERT in a read-only transaction'],
    ['57P01', 'terminating connection due to administrator command'],
    ['57P03', 'the database system is starting up'],
    ['08P01', 'server login has been failing, try again later (server_login_retry)'],
    ['08P01', 'no more connections allowed (max_client_conn)'],
    ['08P01', 'pgbouncer cannot connect to server'],
    ['08P01', 'server conn crashed?'],
    ['08P01', 'query_wait_timeout'],
    ['08006', 'connection failure'],
  ];
  it.each(unavailable)('%s %s: 503, and its connection is discarded', (code, message) => {
    expect(isDatabaseUnavailable(wrapped(pgError(code, message)))).toBe(true);
    expect(isConnectionUnusable(wrapped(pgError(code, message)))).toBe(true);
  });

  it('a reset connection is unavailable, its connection discarded, a read retried', () => {
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    expect(isDatabaseUnavailable(reset)).toBe(true);
    expect(isConnectionUnusable(reset)).toBe(true);
    expect(isCutBeforeAnswer(reset)).toBe(true);
    expect(isCutBeforeAnswer(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  it("PgBouncer's configuration refusals are not unavailable: no retry cures them", () => {
    for (const message of [
      'no such database: ordering',
      'unsupported startup parameter: options',
      'password authentication failed',
    ]) {
      const error = wrapped(pgError('08P01', message));
      expect(configurationError(error), message).toBeDefined();
      expect(isDatabaseUnavailable(error), message).toBe(false);
    }
  });

  it('a bound that ran out keeps its connection (timeouts) or is not retried (no answer)', () => {
    const timedOut = pgError('57014', 'canceling statement due to statement timeout');
    expect(isDatabaseUnavailable(timedOut)).toBe(true);
    expect(isConnectionUnusable(timedOut)).toBe(false);
    const noAnswer = new Error('no answer from the database within 6000 ms');
    expect(isConnectionUnusable(noAnswer)).toBe(true);
    expect(isCutBeforeAnswer(noAnswer)).toBe(false);
    expect(isCutBeforeAnswer(pgError('08P01', 'query_wait_timeout'))).toBe(false);
    // A refused statement is an answer: nothing to retry, the connection is fine.
    expect(isConnectionUnusable(pgError('23505', 'duplicate key'))).toBe(false);
    expect(isCutBeforeAnswer(pgError('25006', 'read-only'))).toBe(false);
  });
});
