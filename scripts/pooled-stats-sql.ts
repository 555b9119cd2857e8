// Prints migration 0021 (drizzle/0021_pooled_stats.sql; with --with-caller, 0022; with --own,
// 0025; with --json, 0028): the hot stats and series of
// src/carts/stats.ts as PL/pgSQL functions, their bodies the service's own texts. Run again
// when those texts change, for a new migration that replaces them
// (`npx tsx scripts/pooled-stats-sql.ts --replace > drizzle/00NN_….sql`);
// test/db/pooled-functions.test.ts fails until then.
import { POOLED_OWN_STATS, POOLED_STATS, type PooledStats } from '../src/carts/stats.js';

export function pooledStatsSql(replace = false): string {
  const create = replace ? 'CREATE OR REPLACE FUNCTION' : 'CREATE FUNCTION';
  const header = `-- The hot stats and series staff read (src/carts/stats.ts, POOLED_STATS) as PL/pgSQL
-- functions behind a transaction pooler (issue 33, decision 0016, as migration 0019 did for
-- the cart, the item add and the first pages): their plans are kept per server connection,
-- which the pooler keeps open, where a statement sent as text is planned on every run. The
-- bodies are the service's texts, written by scripts/pooled-stats-sql.ts;
-- test/db/pooled-functions.test.ts checks that each body is its statement's current text and
-- answers what the statement answers. Parameters come as text: each text casts its own.
-- \`#variable_conflict use_column\`: a column of the body named like an output column is the
-- column.
`;
  const functions = POOLED_STATS.map((s) => fnSql(create, s, []));
  return `${header}${functions.join('\n--> statement-breakpoint\n')}\n`;
}

/** The caller's columns, as `auth_user` (migration 0019) answers them. */
export const CALLER_COLUMNS = `id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer`;

/**
 * Migration 0022 (drizzle/0022_pooled_with_caller.sql): each function of 0021 once more with
 * the caller's look-up in the same call (`<fn>_as`), and the cart's (`cart_doc_as`).
 */
export function pooledWithCallerSql(): string {
  const header = `-- Behind a transaction pooler every call is parsed and planned anew, and each costs its
-- round trip: the hot reads of a route that looks its caller up with its read
-- (\`callerInRead\`, src/http/auth.ts readWithCaller; decision 0016) bring the caller's row
-- (as auth_user answers it) in the same call. Written by scripts/pooled-stats-sql.ts
-- --with-caller; test/db/pooled-functions.test.ts checks each against its two calls.
-- A read's figures come only for staff (as the database says): a customer's are of their own
-- carts, another statement. No row when the user is gone; the read's columns null when the
-- cart is not there or not theirs.
CREATE FUNCTION cart_doc_as(p_user integer, p_cart integer)
RETURNS TABLE (${CALLER_COLUMNS}, doc text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, (SELECT d FROM cart_doc(p_cart, p_user, u."isStaff" OR u."isAdmin") d)
  FROM auth_user(p_user) u;
END $$;
`;
  const functions = POOLED_STATS.map(({ fn, params, returns }) => {
    const args = Array.from({ length: params }, (_, i) => `p${i + 1}`);
    const typed = ['p_user integer', ...args.map((a) => `${a} text`)].join(', ');
    return `CREATE FUNCTION ${fn}_as(${typed})
RETURNS TABLE (${CALLER_COLUMNS}, ${returns})
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM ${fn}(${args.join(', ')}) WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;`;
  });
  return `${header}--> statement-breakpoint\n${functions.join('\n--> statement-breakpoint\n')}\n`;
}

/** A function of `stats`: its body the statement's text, its plan made once per connection. */
function fnSql(create: string, { fn, text, params, returns }: PooledStats, types: string[]) {
  const args = Array.from({ length: params }, (_, i) => `p${i + 1} ${types[i] ?? 'text'}`);
  return `${create} ${fn}(${args.join(', ')})
RETURNS TABLE (${returns})
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY ${text.trim()};
END $$;`;
}

/** A customer's function of staff's `fn` (src/carts/stats.ts names them so). */
const ownOf = (fn: string) => fn.replace(/^(stats|series)_/, '$1_own_');

/** `auth_user`'s columns (migration 0019) from `users` as `who`, for a body that inlines it. */
export const CALLER_SELECT = `who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation`;

/** A text with each parameter `$n` replaced by `to(n)`. */
export const withParams = (text: string, to: (n: number) => string) =>
  text.replace(/\$(\d+)/g, (_, n) => to(Number(n)));

/** A text's parameters moved up by one: `$1` becomes `$2` (the caller's id comes first). */
export const shifted = (text: string) => withParams(text, (n) => `$${n + 1}`);

/**
 * Migration 0025 (drizzle/0025_pooled_own_stats.sql): a customer's stats and series of their
 * own carts in staff's hot shapes, and each `<fn>_as` of 0022 replaced to answer them for a
 * caller the database says is a customer (staff's figures for staff, as before), with the
 * caller's look-up and both texts inlined in one statement: a PL/pgSQL function called from
 * another costs its own executor (about 50 µs a call, measured with pgbench).
 */
export function pooledOwnSql(): string {
  const header = `-- A customer's stats and series (of their own carts) behind a transaction pooler, as staff's
-- (migrations 0021, 0022; issue 33): each shape of staff's as a function of the customer's own
-- (POOLED_OWN_STATS in src/carts/stats.ts, written by scripts/pooled-stats-sql.ts --own), the
-- owner's id first; and each \`<fn>_as\` of 0022 replaced so that one call brings the caller
-- and the figures the caller may see: staff's for staff, the caller's own for a customer,
-- where before a customer's call brought only the caller and the read was a second call,
-- parsed and planned on every run. Each \`<fn>_as\` is one statement, its plan kept: the
-- caller's row as auth_user (0019) reads it, and the two texts (the service's own), each behind
-- a filter on the caller's flags, so that only one of them runs. Same arguments and columns: a
-- running instance of the previous release keeps working (it reads the figures only for staff).
-- test/db/pooled-functions.test.ts checks each against auth_user and its statements.
`;
  const own = POOLED_OWN_STATS.map((s) => fnSql('CREATE FUNCTION', s, ['integer']));
  const either = POOLED_STATS.map(({ fn, text, params, returns }) => {
    const mine = POOLED_OWN_STATS.find((s) => s.fn === ownOf(fn));
    if (!mine) throw new Error(`${fn}: no own`);
    const args = Array.from({ length: params }, (_, i) => `p${i + 1} text`);
    const staff = '(who.is_staff OR who.is_admin)';
    // The customer's text takes the caller's id as $1, then staff's values: as here.
    return `CREATE OR REPLACE FUNCTION ${fn}_as(${['p_user integer', ...args].join(', ')})
RETURNS TABLE (${CALLER_COLUMNS}, ${returns})
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT ${CALLER_SELECT}, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (${shifted(text).trim()}) staff_read WHERE ${staff}
    UNION ALL
    SELECT * FROM (${mine.text.trim()}) own_read WHERE NOT ${staff}) r ON true
  WHERE who.id = $1;
END $$;`;
  });
  return `${header}${[...own, ...either].join('\n--> statement-breakpoint\n')}\n`;
}

/** The caller's columns as `auth_user` (0019) names them, from `users` as `u`, for `INTO who`. */
const CALLER_INTO = `u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"`;

/** `who`'s columns (CALLER_INTO), for a select list. */
const WHO_COLUMNS = `who.id, who.username, who.email, who."firstName", who."lastName", who.telephone,
      who.reference, who."isStaff", who."isAdmin", who."sessionGeneration"`;

/**
 * Migration 0028 (drizzle/0028_pooled_json_with_caller.sql): each `<fn>_as` of 0025 once more
 * as `<fn>_json`, answering one text where `<fn>_as` answers a row (src/http/auth.ts
 * CALLER_JSON): for the stats the JSON object of the caller's columns and the figures; for a
 * series the caller's JSON object, then, where the series has buckets, a newline and the
 * series' text as it is (escaping a long text as JSON cost more than the call saved). Counted
 * in instructions (npm run bench:instructions, decision 0016): a table function's call costs
 * planning its result type, a function scan and a tuple store, and the two texts inlined in
 * one statement (0025) start both plans on every call; a scalar call, the caller's read and
 * one text behind an IF cost a fifth to two fifths less.
 */
export function pooledJsonSql(): string {
  const header = `-- Behind a transaction pooler (issue 33, decision 0016): the hot stats and series with their
-- caller (0022, 0025) as functions that answer one text (src/http/auth.ts CALLER_JSON), NULL
-- when the user is gone: for the stats the JSON object of the caller's columns (as auth_user
-- answers them) and the figures; for a series the caller's JSON object, then, where the series
-- has buckets, a newline and the series' text (JSON escapes every newline: the first one ends
-- the object). The caller is read first, then only the text the caller may see: staff's for
-- staff, the caller's own for a customer. Called in the select list: no result type to plan,
-- no function scan, no tuple store. Each \`<fn>_as\` of 0025 stays for an instance of the
-- previous release. Written by scripts/pooled-stats-sql.ts --json;
-- test/db/pooled-functions.test.ts checks each body against the service's texts today and
-- each answer against auth_user and the statements.
`;
  const functions = POOLED_STATS.map(({ fn, text, params }) => {
    const mine = POOLED_OWN_STATS.find((s) => s.fn === ownOf(fn));
    if (!mine) throw new Error(`${fn}: no own`);
    const args = Array.from({ length: params }, (_, i) => `p${i + 1} text`);
    // The customer's text takes the caller's id as $1, then staff's values: as here.
    const [staff, own] = [shifted(text).trim(), mine.text.trim()];
    const series = fn.startsWith('series_');
    const body = series
      ? `  IF who."isStaff" OR who."isAdmin" THEN
    v_series := (SELECT r.series FROM (${staff}) r);
  ELSE
    v_series := (SELECT r.series FROM (${own}) r);
  END IF;
  RETURN row_to_json(who)::text || CASE WHEN v_series IS NULL THEN '' ELSE E'\\n' || v_series END;`
      : `  IF who."isStaff" OR who."isAdmin" THEN
    RETURN (SELECT row_to_json(x)::text FROM (SELECT ${WHO_COLUMNS}, r.*
      FROM (${staff}) r) x);
  END IF;
  RETURN (SELECT row_to_json(x)::text FROM (SELECT ${WHO_COLUMNS}, r.*
    FROM (${own}) r) x);`;
    return `CREATE FUNCTION ${fn}_json(${['p_user integer', ...args].join(', ')})
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;${series ? '\n  v_series text;' : ''}
BEGIN
  SELECT ${CALLER_INTO}
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
${body}
END $$;`;
  });
  return `${header}${functions.join('\n--> statement-breakpoint\n')}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv;
  process.stdout.write(
    args.includes('--json')
      ? pooledJsonSql()
      : args.includes('--own')
        ? pooledOwnSql()
        : args.includes('--with-caller')
          ? pooledWithCallerSql()
          : pooledStatsSql(args.includes('--replace')),
  );
}
