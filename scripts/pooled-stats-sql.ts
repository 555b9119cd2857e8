// Prints migration 0021 (drizzle/0021_pooled_stats.sql): the hot stats and series of
// src/carts/stats.ts as PL/pgSQL functions, their bodies the service's own texts. Run again
// when those texts change, for a new migration that replaces them
// (`npx tsx scripts/pooled-stats-sql.ts --replace > drizzle/00NN_….sql`);
// test/db/pooled-functions.test.ts fails until then.
import { POOLED_STATS } from '../src/carts/stats.js';

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
  const functions = POOLED_STATS.map(({ fn, text, params, returns }) => {
    const args = Array.from({ length: params }, (_, i) => `p${i + 1} text`).join(', ');
    return `${create} ${fn}(${args})
RETURNS TABLE (${returns})
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY ${text.trim()};
END $$;`;
  });
  return `${header}${functions.join('\n--> statement-breakpoint\n')}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(pooledStatsSql(process.argv.includes('--replace')));
}
