import type { FastifyBaseLogger } from 'fastify';

/**
 * Work done after the answer (the upstream look-up, the code, the mail of a restore request),
 * so the answer takes the same time whether or not the account exists. At most `max` jobs
 * run at once: beyond that a job is dropped, so a flood of requests cannot pile up promises
 * in memory (while the ERP is slow, a burst of restore requests fills them). Each drop is
 * counted (`ordering_restore_jobs_dropped_total`) and logged with what was dropped and the
 * count so far, never the name, address or code the job held; the request's answer is the
 * same. A failure is logged without the message's content: the mail holds a credential.
 */
export class BackgroundJobs {
  private readonly running = new Set<Promise<void>>();
  /** Jobs dropped because `max` were running, since the start. */
  dropped = 0;

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly max = 64,
  ) {}

  /** Starts `job` unless `max` are running; false when it was dropped. */
  add(what: string, job: () => Promise<void>): boolean {
    if (this.running.size >= this.max) {
      this.dropped += 1;
      this.log.warn(
        { max: this.max, dropped: this.dropped },
        `${what}: dropped, too many restore jobs running`,
      );
      return false;
    }
    const run: Promise<void> = Promise.resolve()
      .then(job)
      .catch((error: unknown) => {
        const { message, code } = (error ?? {}) as { message?: unknown; code?: unknown };
        this.log.warn(
          { err: { message: String(message), code: typeof code === 'string' ? code : undefined } },
          `${what}: not sent`,
        );
      })
      .finally(() => this.running.delete(run));
    this.running.add(run);
    return true;
  }

  /** Resolves once no job runs (tests wait for it; close() too). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}
