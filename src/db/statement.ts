import { createHash } from 'node:crypto';
import { ISO_FORMAT } from '../clock.js';

/**
 * Hand-written SQL for the hot paths. On a PostgreSQL server a statement is prepared once
 * per connection under its name (parsed and planned once, not per request); building it
 * through the query builder cost about a third of a request's CPU.
 */
export interface Statement {
  readonly name: string;
  readonly text: string;
}

/** Runs one statement with its parameters; the rows come back as objects. */
export type Run = <Row>(statement: Statement, values: unknown[]) => Promise<Row[]>;

const byText = new Map<string, Statement>();

/**
 * The statement of a text: its name is derived from the text, so a text built from a
 * request's filters (a bounded set of shapes) is prepared once per shape and connection.
 */
export function statement(text: string): Statement {
  let found = byText.get(text);
  if (!found) {
    const name = `s_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    found = { name, text };
    byText.set(text, found);
  }
  return found;
}

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
