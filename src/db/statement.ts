import { createHash } from 'node:crypto';
import { ISO_FORMAT } from '../clock.js';

/**
 * Hand-written SQL for the hot paths; building it through the query builder cost about a
 * third of a request's CPU.
 *
 * Two kinds, so that nothing grows with what clients choose:
 * - `statement()`: a fixed text, made once when its module loads. On a direct connection to
 *   PostgreSQL it is prepared once per connection under its name (parsed and planned once,
 *   not per request). Their number is fixed (under a hundred); past `MAX_NAMED` a text gets no
 *   name, so not even a misuse grows the per-connection caches without bound.
 * - `builtStatement()`: a text built per request from its filters (cart list, stats, time
 *   series): never kept and never named; sent as the protocol's unnamed statement.
 * Behind a transaction pooler (DATABASE_POOLER=transaction) no statement is named: the next
 * transaction may run on another server connection, where the name is unknown.
 */
export interface Statement {
  /** Set for a fixed statement: the name it is prepared under on a direct connection. */
  readonly name?: string;
  readonly text: string;
  /**
   * A write whose text does not say so (a function call), run as one statement, without a
   * verified transaction of its own: its caller copes with an unknown outcome. From it on the
   * request counts as writing (it goes on when its client leaves).
   */
  readonly unverifiedWrite?: boolean;
  /**
   * A write whose text does not say so (a function call), run as a write: in a verified
   * transaction of its own (BEGIN, the statement, COMMIT), as a text that says so would be.
   */
  readonly write?: boolean;
  /**
   * A read whose plan does not depend on its parameters' values, run with the plan made
   * once per connection (`plan_cache_mode = force_generic_plan`, for this read only) on a
   * direct connection. PostgreSQL's own choice re-plans every execution when the plan
   * without values is estimated dearer than one with them: for a page of carts (twenty
   * carts' JSON, and between dates a count over seven parts) planning cost half of the
   * database time (issue 19).
   */
  readonly genericPlan?: boolean;
  /**
   * The same read as a call of a PL/pgSQL function (a migration's), sent instead of `text`
   * behind a transaction pooler: there nothing is prepared, and a text is parsed and planned
   * on every run, where a function keeps its statements' plans per server connection, which
   * the pooler keeps open (decision 0016). Same parameters, same columns.
   */
  readonly pooled?: string;
  /**
   * Behind a pooler, on a route that looks its caller up with its read (`readWithCaller`,
   * src/http/auth.ts): the function call that takes the caller's id first, then `values`,
   * and answers the caller's columns and the read's in one call (migration 0022).
   */
  readonly pooledWithCaller?: string;
}

/** Runs one statement with its parameters; the rows come back as objects. */
export type Run = <Row>(statement: Statement, values: unknown[]) => Promise<Row[]>;

/**
 * Bound on named statements: far above the fixed ones the code holds (88; a test pins that
 * number and keeps it under half of this). Tests that share a worker's modules make their own
 * too: a fixed statement made past the bound would silently go unprepared.
 */
export const MAX_NAMED = 200;

const named = new Map<string, Statement>();

/** A fixed statement (made at module load): named after its text. */
export function statement(
  text: string,
  options: {
    unverifiedWrite?: boolean;
    genericPlan?: boolean;
    pooled?: string;
    pooledWithCaller?: string;
  } = {},
): Statement {
  let found = named.get(text);
  if (found) return found;
  if (named.size >= MAX_NAMED) return { text, ...options };
  found = {
    name: `s_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`,
    text,
    ...options,
  };
  named.set(text, found);
  return found;
}

/** A statement built for one request: unnamed, not kept. */
export const builtStatement = (text: string): Statement => ({ text });

/**
 * The texts a builder makes for its hottest shapes, fixed at module load: a request whose
 * text is one of them gets its fixed statement, any other is built. One with parameters runs
 * with its plan made once (`genericPlan`); one without is planned once by PostgreSQL anyway.
 */
export class HotStatements {
  private readonly byText = new Map<string, Statement>();

  /** Fixes `text`, built with the parameters `p`; its function calls: see Statement. */
  add(text: string, p: Params, pooled?: string, pooledWithCaller?: string): void {
    const genericPlan = p.values.length > 0;
    this.byText.set(text, statement(text, { genericPlan, pooled, pooledWithCaller }));
  }

  /** The fixed statement of `text`, else one built for this request. */
  of(text: string): Statement {
    return this.byText.get(text) ?? builtStatement(text);
  }
}

/** How many named statements exist (tests pin it: a request never adds one). */
export const namedStatementCount = () => named.size;

/** Numbered parameters ($1, $2, …) for a statement built from parts. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** Timestamp text in the contract's form (`2026-03-01T09:15:02.123456Z`), made by the database. */
export const iso = (column: string) => `to_char(${column} at time zone 'UTC', ${ISO_FORMAT})`;
