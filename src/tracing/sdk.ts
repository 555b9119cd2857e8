import { register } from 'node:module';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { envDetector, hostDetector } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import { setFastifyTracing } from './http.js';
import { RedactingExporter } from './redact.js';
import { enableSpans } from './spans.js';

const UNTRACED = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Tracing on (docs/operations.md "Tracing"): the OpenTelemetry SDK for Node, configured by
 * the standard OTEL_* variables (endpoint, headers, service name, sampler, batch sizes),
 * exporting OTLP/HTTP. Loaded only by the entry points, and only when src/tracing/enabled.ts
 * says so, before the app's modules: the pg and ioredis instrumentations patch those modules
 * when they load. Traces only: no OpenTelemetry metrics or logs (Prometheus has the metrics).
 *
 * `exporter` (tests): another exporter in place of OTLP/HTTP, behind the same redaction.
 * `flushTracing()` (src/tracing/spans.ts) sends what is left before the process exits.
 */
export function startTracing(
  options: { serviceName?: string; exporter?: SpanExporter } = {},
): void {
  // ioredis, imported by the service's ES modules, is patched only through the loader hook
  // (import-in-the-middle, as OpenTelemetry's ESM support has it), limited to it.
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, {
    data: { include: ['ioredis'] },
  });
  const exporter = new RedactingExporter(options.exporter ?? new OTLPTraceExporter());
  const fastify = new FastifyOtelInstrumentation({
    // Registered by the app itself, after its hook that drops an untrusted traceparent.
    registerOnInitialization: false,
    // One span per request and its handler; a span per hook would cost more than it tells.
    instrumentHooks: false,
    // Probes and scrapes: many, and nothing to follow.
    ignorePaths: ({ url }: { url: string }) => UNTRACED.has(url.split('?')[0] ?? url),
    // Named by the route's template, never the raw path (ids, codes, restore links).
    requestHook: (span, request) => {
      const route = request.routeOptions.url;
      span.updateName(route ? `${request.method} ${route}` : request.method);
    },
  });
  const sdk = new NodeSDK({
    // OTEL_SERVICE_NAME wins (the env detector); this names it otherwise.
    serviceName: process.env.OTEL_SERVICE_NAME
      ? undefined
      : (options.serviceName ?? 'ordering-service'),
    // Which instance (host.name) and what OTEL_RESOURCE_ATTRIBUTES adds; not the process's
    // command line or owner.
    resourceDetectors: [envDetector, hostDetector],
    // Batched as OTEL_BSP_* say (every 5 s by default).
    traceExporter: exporter,
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      fastify,
      new PgInstrumentation({
        // A span per statement inside a request; connections and pool waits too.
        requireParentSpan: true,
        enhancedDatabaseReporting: false,
      }),
      new UndiciInstrumentation({ requireParentforSpans: true }),
      new IORedisInstrumentation({
        requireParentSpan: true,
        // The command only: a publish's arguments are the notification itself.
        dbStatementSerializer: (command) => command,
      }),
    ],
  });
  sdk.start();
  setFastifyTracing(fastify.plugin());
  enableSpans(() => sdk.shutdown());
}
