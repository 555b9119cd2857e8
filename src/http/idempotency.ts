import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import stringify from 'safe-stable-stringify';
import type { Db } from '../db/client.js';
import type { Run } from '../db/statement.js';
import { runOnce } from '../idempotency/logic.js';
import { currentUser } from './auth.js';

/**
 * A creating write that honours `Idempotency-Key` (src/idempotency/logic.ts). Without the
 * header, `write` runs as it would without this wrapper. With it, `write` runs at most once
 * per user and key; a repeat gets the first answer's status and value, marked with
 * `Idempotent-Replayed: true`. `write` gets the database handles to use (with a key, both
 * on the transaction that also records the key), and answers a JSON value the route sends.
 */
export async function idempotent<S extends number, T>(
  request: FastifyRequest,
  reply: FastifyReply,
  status: S,
  write: (handles: { db: Db; run: Run }) => Promise<T>,
): Promise<{ status: S; answer: T }> {
  const { database, clock } = request.server.deps;
  const key = request.headers['idempotency-key'];
  if (typeof key !== 'string') {
    return { status, answer: await write({ db: database.db, run: database.run }) };
  }
  const operation = `${request.method} ${request.routeOptions.url}`;
  // The request as validated: unknown fields dropped, key order of no account.
  const canonical = stringify({ params: request.params, body: request.body }) ?? '';
  const fingerprint = createHash('sha256').update(`${operation}\n${canonical}`).digest('hex');
  const done = await runOnce(
    database.db,
    clock.nowMicros(),
    { userId: currentUser(request).id, key, operation, fingerprint },
    status,
    (tx) => write({ db: tx, run: database.runIn(tx) }),
  );
  if (done.replayed) reply.header('Idempotent-Replayed', 'true');
  return { status: done.status as S, answer: done.answer };
}
