import type { Attributes } from '@opentelemetry/api';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';

/**
 * What leaves the process in a span: only attributes named here (an allowlist, so that an
 * instrumentation's next version cannot add a URL with a username, a query with an e-mail or
 * a client address unseen). Everything else is dropped before export: `url.full`/`url.path`
 * of ERP calls (they hold usernames, e-mails, telephone numbers), the raw request path and
 * query (notification codes, restore links), `client.address`, `user_agent.original`,
 * `db.user`, and every event attribute but `exception.type` (messages and stacks may quote
 * input). Status messages are dropped too; `error.type` says what failed.
 */
export const ALLOWED_ATTRIBUTES = new Set([
  // HTTP (server: @fastify/otel; client: undici)
  'http.request.method',
  'http.request.method_original',
  'http.response.status_code',
  'http.route',
  'url.scheme',
  'server.address',
  'server.port',
  'network.peer.port',
  'network.protocol.version',
  'error.type',
  // @fastify/otel's own
  'fastify.root',
  'fastify.type',
  'hook.name',
  'hook.callback.name',
  'service.name',
  // database (pg; the service's spans on the embedded database)
  'db.system',
  'db.system.name',
  'db.namespace',
  'db.name',
  'db.operation.name',
  'db.query.text',
  'db.statement',
  'db.postgresql.plan',
  'db.response.status_code',
  // the service's own spans
  'erp.route',
  'erp.kind',
  'erp.attempt',
  'erp.outcome',
  'erp.phase',
  'checkout.outcome',
  'notification.type',
  'notification.users',
  'notification.staff',
  'notification.local_sockets',
  'admin.command',
  'admin.outcome',
]);

/** Keys that are never allowed whatever the list above says (a guard on the list itself). */
const NEVER =
  /pass|secret|token|authorization|cookie|e-?mail|phone|username|user\.|client\.address|user_agent|url\.(full|path|query)/i;

export function allowed(key: string): boolean {
  return ALLOWED_ATTRIBUTES.has(key) && !NEVER.test(key);
}

function keep(attributes: Attributes): Attributes {
  const kept: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (allowed(key)) kept[key] = value;
  }
  return kept;
}

/** A view of `span` with only allowed attributes (the span itself, read by others, is untouched). */
export function redactSpan(span: ReadableSpan): ReadableSpan {
  const events = span.events.map((event) => ({
    ...event,
    attributes:
      event.attributes?.['exception.type'] === undefined
        ? {}
        : { 'exception.type': event.attributes['exception.type'] },
  }));
  return Object.create(span, {
    attributes: { value: keep(span.attributes), enumerable: true },
    events: { value: events, enumerable: true },
    status: { value: { code: span.status.code }, enumerable: true },
  }) as ReadableSpan;
}

/** Wraps the exporter: every span goes out through `redactSpan`. */
type Done = Parameters<SpanExporter['export']>[1];

export class RedactingExporter implements SpanExporter {
  constructor(private readonly inner: SpanExporter) {}

  export(spans: ReadableSpan[], done: Done): void {
    this.inner.export(spans.map(redactSpan), done);
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}
