import { setImmediate as yieldToRequests } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Database } from '../db/client.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import { withSpan } from '../tracing/spans.js';
import { runRetention } from './logic.js';

export interface RetentionSchedule {
  /** Stops the timer and waits for a run in progress to finish its batch. */
  stop(): Promise<void>;
}

/**
 * RETENTION_DAYS set: every RETENTION_INTERVAL_SECONDS, the retention of src/retention/logic.ts
 * runs in this process, with the audit trail's own period (AUDIT_RETENTION_DAYS). Every
 * instance may run it; the advisory lock lets one at a time do the work. A failed run is
 * logged and tried again at the next interval.
 */
export function scheduleRetention(
  database: Database,
  options: {
    days: number;
    /** Audit events' own period (AUDIT_RETENTION_DAYS; 0: kept for ever). */
    auditDays: number;
    intervalSeconds: number;
    clock: Clock;
    log: Logger;
  },
): RetentionSchedule {
  let stopped = false;
  let running: Promise<void> | undefined;
  const run = async () => {
    try {
      // With tracing on, a trace of its own per run (its statements under it).
      const result = await withSpan('retention', {}, () =>
        runRetention(database, {
          days: options.days,
          auditDays: options.auditDays,
          nowMicros: options.clock.nowMicros(),
          // Requests waiting for the (embedded database's one) connection go between batches.
          betweenBatches: () => (stopped ? Promise.reject(new Stopped()) : yieldToRequests()),
        }),
      );
      options.log.info({ retention: result }, 'retention run');
    } catch (error) {
      if (error instanceof Stopped) return;
      const message = (error as Error).message;
      if (isDatabaseUnavailable(error))
        options.log.warn({ err: { message } }, 'retention run failed');
      else options.log.error({ err: error }, 'retention run failed');
    }
  };
  const timer = setInterval(() => {
    if (running || stopped) return;
    running = run().finally(() => {
      running = undefined;
    });
  }, options.intervalSeconds * 1000);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

class Stopped extends Error {}
