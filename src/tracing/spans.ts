import {
  type Attributes,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';

/**
 * The service's own spans (what the instrumentations cannot see: the checkout's steps, the
 * WebSocket fan-out, the admin command's jobs). Only the OpenTelemetry API is imported here,
 * never the SDK; until src/tracing/sdk.ts turns tracing on, `withSpan` only calls its
 * function: no span object, no context switch.
 */
let tracer: Tracer | undefined;
let shutdown: (() => Promise<void>) | undefined;

/** Called by src/tracing/sdk.ts once the SDK is registered; `stop` flushes and ends it. */
export function enableSpans(stop: () => Promise<void>): void {
  tracer = trace.getTracer('ordering-service');
  shutdown = stop;
}

/** How long an exit waits for the last spans: a collector that is down does not hold it. */
const FLUSH_MS = 2000;

/** Sends the spans not yet sent and stops tracing (before a process exits); no-op when off. */
export async function flushTracing(): Promise<void> {
  const stop = shutdown;
  tracer = undefined;
  shutdown = undefined;
  if (!stop) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    stop().catch(() => {}),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, FLUSH_MS);
      timer.unref();
    }),
  ]);
  clearTimeout(timer);
}

export const tracingOn = (): boolean => tracer !== undefined;

/**
 * Runs `work` in a span named `name` (a child of the active span) and ends it; a throw sets
 * the error status (with the error's class, not its message: messages may name people).
 * Attributes: only fixed facts (kinds, counts, route names), never values from requests.
 */
export function withSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: Span | undefined) => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
): Promise<T> {
  if (!tracer) return work(undefined);
  return tracer.startActiveSpan(name, { attributes, kind }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The synchronous twin of `withSpan`. */
export function withSpanSync<T>(name: string, attributes: Attributes, work: () => T): T {
  if (!tracer) return work();
  return tracer.startActiveSpan(name, { attributes }, (span) => {
    try {
      return work();
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Marks `span` failed with the error's class name as `error.type`. */
export function failed(span: Span, error: unknown, type?: string): void {
  const name = type ?? (error instanceof Error ? error.constructor.name : 'Error');
  span.setAttribute('error.type', name);
  span.setStatus({ code: SpanStatusCode.ERROR, message: name });
}

/** trace_id and span_id of the active span, for log lines (pino's mixin); {} without one. */
export function traceFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
