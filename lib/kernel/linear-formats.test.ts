// `format: url` checks run-time values (a code step's output, a file a step read) on the server's
// main thread: ajv-formats's own regular expression takes time quadratic in a value of many `:`.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { linearUrlFormat, useLinearFormats } from './linear-formats';
import { checkSchema } from './schema-check';

const formats = createRequire(import.meta.url)('ajv-formats/dist/formats') as { fullFormats: { url: RegExp } };
const URL_SCHEMA = { type: 'string', format: 'url' } as const;

test('a 64 KB value of `:` is checked against format url in linear time (ajv-formats’s own pattern: seconds)', () => {
  const value = 'http://' + ':'.repeat(64 * 1024) + '\n';
  // the schema compiled first (~0.2 s cold, more on a loaded machine): what is timed is the check alone
  assert.equal(checkSchema(URL_SCHEMA, 'http://example.com').length, 0);
  const t = performance.now();
  const errors = checkSchema(URL_SCHEMA, value);
  const ms = performance.now() - t;
  assert.equal(errors.length, 1);
  // linear: ~2 ms here; ajv-formats's own pattern: 6–7 s at this size
  assert.ok(ms < 300, `took ${ms.toFixed(0)} ms`);
});

test('the linear url format answers as ajv-formats’s pattern does: private IPv4 hosts refused, names and public hosts taken', () => {
  const original = formats.fullFormats.url;
  const linear = linearUrlFormat(original.source);
  const samples = ['http://example.com', 'HTTPS://EXAMPLE.COM/a', 'ftp://u:p@host.example.org:21/x', 'http://10.1.2.3', 'http://11.1.2.3', 'http://127.0.0.1:80/', 'http://172.16.0.1', 'http://172.32.0.1', 'http://192.168.1.1', 'http://169.254.1.1', 'http://u@10.1.2.3', 'http://10.1.2.3.com', 'http://localhost', 'http://ü.example.com', 'http://1.2.3.4', 'http://224.0.0.1', 'http://a.bc:123456', 'mailto:a@b.com', 'http://a.com/a b'];
  for (const s of samples) assert.equal(linear(s), original.test(s), s);
  // and on strings made of the pieces these patterns turn on
  const parts = ['http://', 'https://', '10.', '127.', '172.16.', '172.32.', '192.168.', '169.254.', '1.', '255', '0', '.', ':', '@', 'a', 'b.c', 'com', '/', ' ', '-', 'ü', ':8080', '223.'];
  let seed = 7;
  const next = (n: number) => Math.floor(((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * n);
  for (let i = 0; i < 20_000; i++) {
    let s = parts[next(2)];
    for (let k = 1 + next(7); k > 0; k--) s += parts[next(parts.length)];
    assert.equal(linear(s), original.test(s), s);
  }
  assert.deepEqual(checkSchema(URL_SCHEMA, 'http://example.com/x'), []);
  assert.equal(checkSchema(URL_SCHEMA, 'http://192.168.0.1/').length, 1);
});

test('the linear url format is compiled when a value is first checked against it, not when it is added', () => {
  // a pattern it takes apart (lookaheads where expected) whose RE2 compilation fails (a backreference):
  // adding the format compiles nothing; the first check does
  const formats: Record<string, unknown> = { url: /^(a)\1(?:(?!10\.)\d+|[a-z]+)$/i };
  const host = { formats, addFormat: (name: string, f: (s: string) => boolean) => (formats[name] = f) };
  useLinearFormats(host);
  const check = formats.url as (s: string) => boolean;
  assert.equal(typeof check, 'function');
  assert.throws(() => check('https://example.com'));
});

test('a url format spelled otherwise than expected (ajv-formats changed) fails where the format is added, not in a run', () => {
  const formats: Record<string, unknown> = { url: /no lookaheads here/i };
  const host = { formats, addFormat: (name: string, f: (s: string) => boolean) => (formats[name] = f) };
  assert.throws(() => useLinearFormats(host), /no lookaheads where expected/);
  assert.ok(formats.url instanceof RegExp, 'the format is left as it was');
});
