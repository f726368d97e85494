// OTEL_EXPORTER_OTLP_ENDPOINT=notaurl (a host without its scheme, a typo) was taken as "on": the exporter fell back
// to http://localhost:4318 without a word, and each run then said it could not send to 127.0.0.1:4318, an address
// nobody set. Now it is refused once, naming the variable, as an unsupported protocol is.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { traceSettings } from './otlp-export';

test('an endpoint that is an http(s) URL turns traces on', () => {
  assert.deepEqual(traceSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://localhost:4318' }), { enabled: true, protocol: 'http/protobuf' });
  assert.deepEqual(traceSettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://cloud.langfuse.com/api/public/otel/v1/traces', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }), {
    enabled: true,
    protocol: 'http/json',
  });
});

test('an endpoint that is no http(s) URL is said, naming the variable, and nothing is sent', () => {
  for (const [name, value] of [
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'notaurl'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'collector:4318'],
    ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'grpc://collector:4317'],
  ]) {
    const s = traceSettings({ [name]: value });
    assert.equal(s.enabled, false, value);
    assert.equal(s.enabled === false && s.problem, `${name}=${value} is not an http:// or https:// URL: set a collector's OTLP/HTTP endpoint (such as http://localhost:4318). No traces are sent.`);
  }
});
