/**
 * One scenario of load, in its own process (never in a server's event loop):
 * `tsx bench/load.ts <base url> <scenario> <plan.json>`; BENCH_SECONDS, BENCH_CONNECTIONS,
 * BENCH_WARMING_UP, BENCH_CHECKOUT_SHARE.
 * Each request draws its user and cart from the plan run.ts wrote; prints the figures as JSON.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { type Plan, scenarios } from './scenarios.js';

const [base, scenario, planFile] = process.argv.slice(2);
const plan = JSON.parse(readFileSync(planFile!, 'utf8')) as Plan;
const [shareOf, shares] = (process.env.BENCH_CHECKOUT_SHARE ?? '0/1').split('/').map(Number);
plan.checkoutCarts = plan.checkoutCarts.filter((_, i) => i % shares! === shareOf);
const make = scenarios(plan, { warmingUp: process.env.BENCH_WARMING_UP === '1' })[scenario!];
if (!make) throw new Error(`unknown scenario ${scenario}`);
/** 503 answers without `Retry-After` (the overload runs count them). */
let unavailableWithoutRetryAfter = 0;
const result = await autocannon({
  url: base!,
  connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
  duration: Number(process.env.BENCH_SECONDS ?? 10),
  // A naive floor over a million carts takes seconds per answer: slow, not failed. The
  // overload runs set the bound a request must answer within (BENCH_TIMEOUT_SECONDS).
  timeout: Number(process.env.BENCH_TIMEOUT_SECONDS ?? 60),
  requests: [
    {
      // biome-ignore lint/suspicious/noExplicitAny: autocannon's request type is loose.
      setupRequest: (request: any) => ({ ...request, ...make() }),
      onResponse: (status: number, _body: unknown, _context: unknown, headers?: object) => {
        if (status !== 503) return;
        const names = Object.keys(headers ?? {}).map((name) => name.toLowerCase());
        if (!names.includes('retry-after')) unavailableWithoutRetryAfter++;
      },
    },
  ],
});
process.stdout.write(
  `${JSON.stringify({
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    unavailableWithoutRetryAfter,
    statusCodes: Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count]),
    ),
  })}\n`,
);
