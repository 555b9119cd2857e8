import { totalmem } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { App, Deps } from '../deps.js';
import type { AppEventBus } from '../events/app-events.js';
import { READY_TIMEOUT_MS } from '../health/routes.js';
import { protections } from '../protections/context.js';
import { usersContext } from '../users/context.js';

/** The label of requests no route matched (404s, redirects): one series, whatever the URL. */
export const UNMATCHED_ROUTE = 'unmatched';

/** The outcomes of a checkout attempt that reached upstream. */
const CHECKOUT_OUTCOMES = ['placed', 'queued', 'unavailable', 'failed'] as const;

/**
 * The app's Prometheus metrics, in a registry of its own (tests run many apps in one
 * process; prom-client's global registry would mix them). Fed by one histogram observation
 * per request, the app's events, the upstream client's reports, and read at scrape time
 * from the pool, the WebSocket server and the notifier.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requestDuration: Histogram<'method' | 'route' | 'status_code'>;
  private readonly stops: (() => void)[] = [];

  constructor(app: App, deps: Deps, events: AppEventBus) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });

    this.requestDuration = new Histogram({
      name: 'ordering_http_request_duration_seconds',
      help: 'Time to answer a request, by route pattern, method and status',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });

    const { database } = deps;
    const pool = () => database.poolStats();
    new Gauge({
      name: 'ordering_db_pool_max_connections',
      help: 'Connections the database pool may open (1: the embedded database)',
      registers,
      collect() {
        this.set(pool().max);
      },
    });
    new Gauge({
      name: 'ordering_db_pool_connections',
      help: 'Connections the database pool holds open',
      registers,
      collect() {
        this.set(pool().open);
      },
    });
    // The embedded database has one connection and no pool: no idle or waiting figures.
    if (database.kind === 'postgres') {
      new Gauge({
        name: 'ordering_db_pool_idle_connections',
        help: 'Open database connections not in use',
        registers,
        collect() {
          this.set(pool().idle ?? 0);
        },
      });
      new Gauge({
        name: 'ordering_db_pool_waiting_clients',
        help: 'Requests waiting for a database connection',
        registers,
        collect() {
          this.set(pool().waiting ?? 0);
        },
      });
    }

    // Asked at scrape time, as /readyz asks: the alert on a database that is gone needs a
    // figure that does not depend on traffic arriving.
    new Gauge({
      name: 'ordering_database_up',
      help: 'Whether the database answered `select 1` within 2 s at scrape time (1) or not (0)',
      registers,
      async collect() {
        this.set((await databaseAnswers(database)) ? 1 : 0);
      },
    });

    const upstream = new Histogram({
      name: 'ordering_upstream_call_duration_seconds',
      help: 'Exchanges with the ERP by kind of call and outcome (status class or failure), from the call (queueing included)',
      labelNames: ['kind', 'outcome'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.stops.push(
      deps.upstream.observe(({ kind, outcome, seconds }) =>
        upstream.observe({ kind, outcome }, seconds),
      ),
    );

    const checkouts = new Counter({
      name: 'ordering_checkouts_total',
      help: 'Checkout attempts that went upstream, by outcome: placed, queued (upstream 202), unavailable (upstream 503 or refused), failed (timeout, unusable answer, refused token)',
      labelNames: ['outcome'],
      registers,
    });
    for (const outcome of CHECKOUT_OUTCOMES) checkouts.inc({ outcome }, 0);
    events.subscribe('cart.checked_out', 'metrics', ({ checkout }) => {
      checkouts.inc({ outcome: checkout.timed_out ? 'queued' : 'placed' });
    });
    events.subscribe('cart.checkout_failed', 'metrics', ({ failure }) => {
      checkouts.inc({ outcome: failure.kind === 'unavailable' ? 'unavailable' : 'failed' });
    });

    const drawn = new Counter({
      name: 'ordering_random_controls_drawn_total',
      help: 'Random controls created by the draw after a checkout',
      registers,
    });
    events.subscribe('control.created', 'metrics', ({ control }) => {
      if (control.is_random) drawn.inc();
    });

    new Gauge({
      name: 'ordering_websocket_connections',
      help: 'Open notification WebSockets on this instance',
      registers,
      collect() {
        this.set(app.websocketServer?.clients.size ?? 0);
      },
    });

    // What memory alerts compare with: V8's heap limit (HEAP_LIMIT_MB via npm start's
    // --max-old-space-size, plus the young generation) and the memory the process may have.
    new Gauge({
      name: 'ordering_heap_limit_bytes',
      help: "V8's heap size limit: a heap that reaches it ends the process (out of memory)",
      registers,
      collect() {
        this.set(getHeapStatistics().heap_size_limit);
      },
    });
    new Gauge({
      name: 'ordering_memory_limit_bytes',
      help: "Memory the process may use: its cgroup's (container's) limit when one is set, else the machine's memory",
      registers,
      collect() {
        this.set(memoryLimit());
      },
    });

    const { notifier } = deps;
    new Counter({
      name: 'ordering_notification_fanout_errors_total',
      help: 'Notifications that did not travel between instances (Redis refused the publish, or an unreadable message arrived)',
      registers,
      collect() {
        this.reset();
        this.inc(notifier?.fanoutErrors ?? 0);
      },
    });
    // The account's protections: limits counted in this process while Redis fails, and
    // restore jobs dropped at the cap. Made here if no route has asked yet (one per app).
    const { throttle } = protections(app);
    new Gauge({
      name: 'ordering_rate_limit_fallback',
      help: 'Whether the login and restore limits count in this process because the shared counters (Redis) fail (1) or not (0)',
      registers,
      collect() {
        this.set(throttle.fallingBack ? 1 : 0);
      },
    });
    new Counter({
      name: 'ordering_rate_limit_fallback_checks_total',
      help: 'Rate-limit checks decided on the counts of this process because the shared counters (Redis) failed',
      registers,
      collect() {
        this.reset();
        this.inc(throttle.fallbackChecks);
      },
    });
    const { jobs } = usersContext(app);
    new Counter({
      name: 'ordering_restore_jobs_dropped_total',
      help: 'Restore e-mails (code or link) not sent because the background job cap was full (the request answered as usual)',
      registers,
      collect() {
        this.reset();
        this.inc(jobs.dropped);
      },
    });
  }

  /** onResponse: one observation per request, labelled by the route's pattern, never the URL. */
  observeRequest(request: FastifyRequest, reply: FastifyReply): void {
    this.requestDuration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? UNMATCHED_ROUTE,
        status_code: reply.statusCode,
      },
      reply.elapsedTime / 1000,
    );
  }

  close(): void {
    for (const stop of this.stops.splice(0)) stop();
  }
}

/** The database answers a ping within READY_TIMEOUT_MS (never throws). */
async function databaseAnswers(database: Deps['database']): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      database.ping(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('ping timed out')), READY_TIMEOUT_MS);
      }),
    ]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** The cgroup limit (Node reports a huge number or 0 when there is none), capped at the machine's memory. */
function memoryLimit(): number {
  const constrained = process.constrainedMemory?.() ?? 0;
  const machine = totalmem();
  return constrained > 0 && constrained < machine ? constrained : machine;
}
