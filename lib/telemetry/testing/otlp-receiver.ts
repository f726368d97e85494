/**
 * A local OTLP/HTTP trace receiver for tests: accepts POST /v1/traces as
 * protobuf (`application/x-protobuf`) or JSON (`application/json`), decodes
 * both into one shape, and keeps every span it got.
 *
 * The protobuf side is a small wire-format reader for the fields of
 * ExportTraceServiceRequest a test looks at (opentelemetry-proto's
 * trace/v1/trace.proto, common/v1/common.proto numbering). It is written here
 * because no protobuf runtime is among the dependencies (the exporter encodes
 * by hand too), and a test needs an independent decoder anyway.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Value = string | number | boolean | Value[] | null;
export type ReceivedSpan = {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: Record<string, Value>;
  status: { code: number; message: string };
  events: { name: string; attributes: Record<string, Value> }[];
  links: { traceId: string; spanId: string }[];
  resource: Record<string, Value>;
  scope: string;
};
export type Received = { contentType: string; spans: ReceivedSpan[] };

export type OtlpReceiver = { url: string; requests: Received[]; spans(): ReceivedSpan[]; close(): Promise<void> };

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const requests: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const contentType = String(req.headers['content-type'] ?? '');
      try {
        if (req.method !== 'POST' || req.url !== '/v1/traces') throw new Error(`unexpected ${req.method} ${req.url}`);
        const spans = contentType.includes('json') ? fromJson(JSON.parse(body.toString('utf8'))) : fromProtobuf(body);
        requests.push({ contentType, spans });
        res.writeHead(200, { 'content-type': contentType.includes('json') ? 'application/json' : 'application/x-protobuf' });
        res.end(contentType.includes('json') ? '{}' : Buffer.alloc(0));
      } catch (e) {
        res.writeHead(400, { 'content-type': 'text/plain' });
        res.end(String((e as Error).message));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    spans: () => requests.flatMap((r) => r.spans),
    close: () => new Promise((r) => server.close(() => r())),
  };
}

// ---------------------------------------------------------------- JSON (OTLP/JSON: hex ids, camelCase)

type JsonAny = Record<string, unknown>;

function jsonValue(v: JsonAny | undefined): Value {
  if (!v) return null;
  if ('stringValue' in v) return String(v.stringValue);
  if ('boolValue' in v) return Boolean(v.boolValue);
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return Number(v.doubleValue);
  if ('arrayValue' in v) return (((v.arrayValue as JsonAny).values as JsonAny[]) ?? []).map(jsonValue);
  return null;
}

const jsonAttrs = (list: unknown): Record<string, Value> => Object.fromEntries(((list as JsonAny[]) ?? []).map((kv) => [String(kv.key), jsonValue(kv.value as JsonAny)]));

function fromJson(body: JsonAny): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of (body.resourceSpans as JsonAny[]) ?? []) {
    const resource = jsonAttrs((rs.resource as JsonAny | undefined)?.attributes);
    for (const ss of (rs.scopeSpans as JsonAny[]) ?? []) {
      for (const s of (ss.spans as JsonAny[]) ?? []) {
        out.push({
          traceId: String(s.traceId ?? ''),
          spanId: String(s.spanId ?? ''),
          parentSpanId: String(s.parentSpanId ?? ''),
          name: String(s.name),
          kind: Number(s.kind ?? 0),
          startNs: BigInt(String(s.startTimeUnixNano ?? 0)),
          endNs: BigInt(String(s.endTimeUnixNano ?? 0)),
          attributes: jsonAttrs(s.attributes),
          status: { code: Number((s.status as JsonAny | undefined)?.code ?? 0), message: String((s.status as JsonAny | undefined)?.message ?? '') },
          events: ((s.events as JsonAny[]) ?? []).map((e) => ({ name: String(e.name), attributes: jsonAttrs(e.attributes) })),
          links: ((s.links as JsonAny[]) ?? []).map((l) => ({ traceId: String(l.traceId), spanId: String(l.spanId) })),
          resource,
          scope: String((ss.scope as JsonAny | undefined)?.name ?? ''),
        });
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------- protobuf wire format

type Field = { no: number; wire: number; varint?: bigint; bytes?: Buffer; fixed?: Buffer };

function fields(buf: Buffer): Field[] {
  const out: Field[] = [];
  let i = 0;
  const varint = (): bigint => {
    let r = 0n;
    let shift = 0n;
    for (;;) {
      const b = buf[i++];
      if (b === undefined) throw new Error('truncated varint');
      r |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return r;
      shift += 7n;
    }
  };
  while (i < buf.length) {
    const key = Number(varint());
    const no = key >>> 3;
    const wire = key & 7;
    if (wire === 0) out.push({ no, wire, varint: varint() });
    else if (wire === 2) {
      const len = Number(varint());
      out.push({ no, wire, bytes: buf.subarray(i, i + len) });
      i += len;
    } else if (wire === 1) {
      out.push({ no, wire, fixed: buf.subarray(i, i + 8) });
      i += 8;
    } else if (wire === 5) {
      out.push({ no, wire, fixed: buf.subarray(i, i + 4) });
      i += 4;
    } else throw new Error(`unsupported wire type ${wire}`);
  }
  return out;
}

const all = (fs: Field[], no: number) => fs.filter((f) => f.no === no);
const one = (fs: Field[], no: number) => fs.find((f) => f.no === no);
const text = (f: Field | undefined) => (f?.bytes ? f.bytes.toString('utf8') : '');
const hexOf = (f: Field | undefined) => (f?.bytes ? f.bytes.toString('hex') : '');

function pbValue(buf: Buffer | undefined): Value {
  if (!buf) return null;
  const fs = fields(buf);
  const f = fs[0];
  if (!f) return null;
  switch (f.no) {
    case 1:
      return text(f);
    case 2:
      return f.varint === 1n;
    case 3:
      return Number(BigInt.asIntN(64, f.varint ?? 0n));
    case 4:
      return f.fixed!.readDoubleLE(0);
    case 5:
      return all(fields(f.bytes!), 1).map((x) => pbValue(x.bytes));
    default:
      return null;
  }
}

const pbAttrs = (fs: Field[]): Record<string, Value> =>
  Object.fromEntries(fs.map((kv) => fields(kv.bytes!)).map((kv) => [text(one(kv, 1)), pbValue(one(kv, 2)?.bytes)]));

function fromProtobuf(body: Buffer): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of all(fields(body), 1)) {
    const rsf = fields(rs.bytes!);
    const res = one(rsf, 1);
    const resource = res ? pbAttrs(all(fields(res.bytes!), 1)) : {};
    for (const ss of all(rsf, 2)) {
      const ssf = fields(ss.bytes!);
      const scope = one(ssf, 1);
      for (const sp of all(ssf, 2)) {
        const f = fields(sp.bytes!);
        const st = one(f, 15);
        const stf = st ? fields(st.bytes!) : [];
        out.push({
          traceId: hexOf(one(f, 1)),
          spanId: hexOf(one(f, 2)),
          parentSpanId: hexOf(one(f, 4)),
          name: text(one(f, 5)),
          kind: Number(one(f, 6)?.varint ?? 0n),
          startNs: one(f, 7)?.fixed?.readBigUInt64LE(0) ?? 0n,
          endNs: one(f, 8)?.fixed?.readBigUInt64LE(0) ?? 0n,
          attributes: pbAttrs(all(f, 9)),
          status: { code: Number(one(stf, 3)?.varint ?? 0n), message: text(one(stf, 2)) },
          events: all(f, 11).map((e) => {
            const ef = fields(e.bytes!);
            return { name: text(one(ef, 2)), attributes: pbAttrs(all(ef, 3)) };
          }),
          links: all(f, 13).map((l) => {
            const lf = fields(l.bytes!);
            return { traceId: hexOf(one(lf, 1)), spanId: hexOf(one(lf, 2)) };
          }),
          resource,
          scope: scope ? text(one(fields(scope.bytes!), 1)) : '',
        });
      }
    }
  }
  return out;
}
