/**
 * Sending runs' spans to an OpenTelemetry collector over OTLP/HTTP, with the
 * official exporters, configured the standard way:
 *
 * - on when OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT
 *   is set (off with OTEL_SDK_DISABLED=true, or OTEL_TRACES_EXPORTER=none);
 * - OTEL_EXPORTER_OTLP_[TRACES_]PROTOCOL: `http/protobuf` (the default) or
 *   `http/json` (`grpc` is not supported: said once, nothing is sent);
 * - headers, timeout, compression and certificates come from the usual
 *   OTEL_EXPORTER_OTLP_* variables, which the exporter reads itself;
 *   OTEL_SERVICE_NAME (default `stagecraft`) and OTEL_RESOURCE_ATTRIBUTES
 *   make the resource.
 *
 * With no endpoint, nothing here is loaded: the OpenTelemetry packages are
 * imported the first time a trace is sent.
 *
 * Owns: the settings, the exporter (one per process) and turning SpanData
 * into the SDK's ReadableSpan. Does not: decide what a span is (run-spans.ts)
 * or when a run is sent (lib/server/runs/trace-run.ts).
 */
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { SpanData } from './run-spans';

export type TraceSettings = { enabled: true; protocol: 'http/protobuf' | 'http/json' } | { enabled: false; problem?: string };

export function traceSettings(env: Record<string, string | undefined>): TraceSettings {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint) return { enabled: false };
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return { enabled: false };
  const exporters = (env.OTEL_TRACES_EXPORTER ?? 'otlp').split(',').map((s) => s.trim());
  if (!exporters.includes('otlp')) return { enabled: false };
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || 'http/protobuf').trim();
  if (protocol !== 'http/protobuf' && protocol !== 'http/json') {
    return {
      enabled: false,
      problem: `OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not supported: Stagecraft sends OTLP over HTTP — set http/protobuf (the default; a collector's port 4318) or http/json. No traces are sent.`,
    };
  }
  // not a URL: the exporter would fall back to http://localhost:4318 without a word, and each run's failure to
  // send would then name an address nobody set
  const name = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT';
  if (!isHttpUrl(endpoint.trim())) {
    return { enabled: false, problem: `${name}=${endpoint} is not an http:// or https:// URL: set a collector's OTLP/HTTP endpoint (such as http://localhost:4318). No traces are sent.` };
  }
  return { enabled: true, protocol };
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

const EXPORTERS = Symbol.for('stagecraft.otlp-exporters');
type Holder = { [EXPORTERS]?: Map<string, Promise<Sender>> };
type Sender = { exporter: SpanExporter; toReadable: (spans: SpanData[]) => ReadableSpan[] };

async function makeSender(protocol: 'http/protobuf' | 'http/json'): Promise<Sender> {
  const [api, resources, mod] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/resources'),
    protocol === 'http/json' ? import('@opentelemetry/exporter-trace-otlp-http') : import('@opentelemetry/exporter-trace-otlp-proto'),
  ]);
  // endpoint, headers, timeout, compression, certificates: the exporter reads OTEL_EXPORTER_OTLP_* itself
  const exporter = new mod.OTLPTraceExporter();
  // the service is stagecraft unless OTEL_SERVICE_NAME / OTEL_RESOURCE_ATTRIBUTES say otherwise (the env wins)
  const resource = resources
    .resourceFromAttributes({ 'service.name': 'stagecraft', 'telemetry.sdk.language': 'nodejs' })
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const scope = { name: 'stagecraft', version: '0.1.0' };
  const hr = (ms: number): [number, number] => [Math.floor(ms / 1000), Math.round((ms % 1000) * 1e6)];
  const STATUS = { unset: api.SpanStatusCode.UNSET, ok: api.SpanStatusCode.OK, error: api.SpanStatusCode.ERROR } as const;
  const context = (traceId: string, spanId: string) => ({ traceId, spanId, traceFlags: api.TraceFlags.SAMPLED, isRemote: false });
  const toReadable = (spans: SpanData[]): ReadableSpan[] =>
    spans.map((s) => {
      const endMs = Math.max(s.endMs, s.startMs);
      return {
        name: s.name,
        kind: s.kind === 'client' ? api.SpanKind.CLIENT : api.SpanKind.INTERNAL,
        spanContext: () => context(s.traceId, s.spanId),
        parentSpanContext: s.parentSpanId ? context(s.traceId, s.parentSpanId) : undefined,
        startTime: hr(s.startMs),
        endTime: hr(endMs),
        duration: hr(endMs - s.startMs),
        status: { code: STATUS[s.status.code], ...(s.status.message ? { message: s.status.message } : {}) },
        attributes: s.attributes,
        links: s.links.map((l) => ({ context: context(l.traceId, l.spanId), attributes: l.attributes })),
        events: s.events.map((e) => ({ name: e.name, time: hr(e.atMs), attributes: e.attributes })),
        ended: true,
        resource,
        instrumentationScope: scope,
        droppedAttributesCount: 0,
        droppedEventsCount: 0,
        droppedLinksCount: 0,
      };
    });
  return { exporter, toReadable };
}

function senderFor(settings: Extract<TraceSettings, { enabled: true }>, env: Record<string, string | undefined>): Promise<Sender> {
  const g = globalThis as Holder;
  const senders = (g[EXPORTERS] ??= new Map());
  const key = `${settings.protocol} ${env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? ''} ${env.OTEL_EXPORTER_OTLP_ENDPOINT ?? ''}`;
  let s = senders.get(key);
  if (!s) {
    s = makeSender(settings.protocol);
    senders.set(key, s);
    s.catch(() => senders.delete(key));
  }
  return s;
}

/** Sends the spans of one run (one OTLP request); rejects when the collector refuses or cannot be reached. */
export async function exportSpans(spans: SpanData[], settings: Extract<TraceSettings, { enabled: true }>, env: Record<string, string | undefined> = process.env): Promise<void> {
  if (spans.length === 0) return;
  const { exporter, toReadable } = await senderFor(settings, env);
  const result = await new Promise<{ code: number; error?: Error }>((resolve) => exporter.export(toReadable(spans), resolve));
  if (result.code !== 0) throw result.error ?? new Error('the OTLP endpoint refused the spans');
}

/** Lets the exporters go (their keep-alive connections), for a process about to end. */
export async function shutdownExporters(): Promise<void> {
  const g = globalThis as Holder;
  const senders = g[EXPORTERS];
  if (!senders) return;
  g[EXPORTERS] = undefined;
  await Promise.all([...senders.values()].map((s) => s.then((x) => x.exporter.shutdown()).catch(() => undefined)));
}
