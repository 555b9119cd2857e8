import { once } from 'node:events';
import { createServer, type Server } from 'node:http';

/** One span as an OTLP/HTTP JSON export carries it, flattened. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  start: bigint;
  end: bigint;
  attributes: Record<string, unknown>;
  /** Every attribute of its events, flattened. */
  eventAttributes: Record<string, unknown>[];
  status: { code?: number; message?: string };
  resource: Record<string, unknown>;
}

interface AnyValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
}
type KeyValue = { key: string; value: AnyValue };

const value = (v: AnyValue): unknown =>
  v.stringValue ??
  (v.intValue !== undefined ? Number(v.intValue) : undefined) ??
  v.boolValue ??
  v.doubleValue ??
  v.arrayValue?.values?.map(value);

const flat = (list: KeyValue[] | undefined) =>
  Object.fromEntries((list ?? []).map((kv) => [kv.key, value(kv.value)]));

/**
 * An OTLP/HTTP receiver in this process (a collector's stand-in: Debian has none), taking
 * what the SDK's OTLP/HTTP exporter sends to `<url>/v1/traces` (JSON, or refused).
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  readonly contentTypes = new Set<string>();
  private server!: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.contentTypes.add(String(req.headers['content-type']));
        if (req.url !== '/v1/traces' || !String(req.headers['content-type']).includes('json')) {
          res.writeHead(415).end();
          return;
        }
        this.take(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    const { port } = this.server.address() as { port: number };
    this.url = `http://127.0.0.1:${port}`;
    return this;
  }

  private take(body: {
    resourceSpans?: {
      resource?: { attributes?: KeyValue[] };
      scopeSpans?: {
        spans?: (Omit<ReceivedSpan, 'attributes' | 'start' | 'end' | 'eventAttributes'> & {
          attributes?: KeyValue[];
          events?: { attributes?: KeyValue[] }[];
          startTimeUnixNano: string;
          endTimeUnixNano: string;
        })[];
      }[];
    }[];
  }): void {
    for (const rs of body.resourceSpans ?? []) {
      const resource = flat(rs.resource?.attributes);
      for (const ss of rs.scopeSpans ?? []) {
        for (const s of ss.spans ?? []) {
          this.spans.push({
            traceId: s.traceId,
            spanId: s.spanId,
            parentSpanId: s.parentSpanId ?? '',
            name: s.name,
            kind: s.kind,
            start: BigInt(s.startTimeUnixNano),
            end: BigInt(s.endTimeUnixNano),
            attributes: flat(s.attributes),
            eventAttributes: (s.events ?? []).map((e) => flat(e.attributes)),
            status: s.status ?? {},
            resource,
          });
        }
      }
    }
  }

  /** Resolves once a span matching `test` has arrived (polled: spans come in batches). */
  async waitFor(test: (span: ReceivedSpan) => boolean, timeoutMs = 15_000): Promise<ReceivedSpan> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const found = this.spans.find(test);
      if (found) return found;
      if (Date.now() > until) {
        throw new Error(`no such span; received: ${this.spans.map((s) => s.name).join(', ')}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** The chain of ancestors of `span`, nearest first. */
  ancestors(span: ReceivedSpan): ReceivedSpan[] {
    const chain: ReceivedSpan[] = [];
    let current: ReceivedSpan | undefined = span;
    while (current?.parentSpanId) {
      const parentId: string = current.parentSpanId;
      current = this.spans.find((s) => s.spanId === parentId && s.traceId === span.traceId);
      if (current) chain.push(current);
    }
    return chain;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
