import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { locateModelScript, modelFromSpec } from './index';
import { UsageError } from '../kernel/errors';
import type { ModelRequest } from '../kernel/ports';

const request = (over: Partial<ModelRequest> = {}): ModelRequest => ({
  runId: 'run-1',
  phase: 'draft',
  round: 1,
  messages: [{ role: 'user', content: 'hi' }],
  tools: [],
  responseFormat: null,
  ...over,
});

/** A one-answer chat-completions server; returns its base URL, what it saw, and how to stop it. */
async function startServer(): Promise<{ baseUrl: string; seen: { headers: http.IncomingHttpHeaders; body: { model?: string } }[]; close(): Promise<void> }> {
  const seen: { headers: http.IncomingHttpHeaders; body: { model?: string } }[] = [];
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString('utf8')));
    req.on('end', () => {
      seen.push({ headers: req.headers, body: JSON.parse(data) as { model?: string } });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'hi' } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test('modelFromSpec: scripted:FILE is found in the bundle folder, then the working directory', async () => {
  const bundleDir = mkdtempSync(path.join(tmpdir(), 'bundle-'));
  const cwd = mkdtempSync(path.join(tmpdir(), 'cwd-'));
  writeFileSync(path.join(bundleDir, 'model.yaml'), 'turns:\n  - text: from the bundle\n');
  writeFileSync(path.join(cwd, 'other.yaml'), 'turns:\n  - text: from cwd\n');
  const inBundle = modelFromSpec('scripted:model.yaml', { bundleDir, env: {}, cwd });
  assert.equal(inBundle.name, 'scripted:model.yaml');
  assert.equal((await inBundle.invoke(request())).text, 'from the bundle');
  assert.equal((await modelFromSpec('scripted:other.yaml', { bundleDir, env: {}, cwd }).invoke(request())).text, 'from cwd');
  const abs = path.join(cwd, 'other.yaml');
  assert.equal((await modelFromSpec(`scripted:${abs}`, { bundleDir, env: {} }).invoke(request())).text, 'from cwd');
});

test('modelFromSpec: openai reads the environment and calls the endpoint', async () => {
  const server = await startServer();
  try {
    const env = { STAGECRAFT_MODEL_BASE_URL: server.baseUrl, STAGECRAFT_MODEL: 'env-model', STAGECRAFT_MODEL_API_KEY: 'k' };
    const fromEnv = modelFromSpec('openai', { bundleDir: '/nowhere', env });
    assert.equal(fromEnv.name, 'openai:env-model');
    await fromEnv.invoke(request());
    assert.equal(server.seen[0].body.model, 'env-model');
    assert.equal(server.seen[0].headers.authorization, 'Bearer k');
    assert.equal(modelFromSpec('openai:gpt-4o-mini', { bundleDir: '/nowhere', env }).name, 'openai:gpt-4o-mini');
  } finally {
    await server.close();
  }
});

test('modelFromSpec: usage errors', () => {
  const usage = (spec: string, env: Record<string, string>, pattern: RegExp) =>
    assert.throws(
      () => modelFromSpec(spec, { bundleDir: '/nowhere', env }),
      (e: unknown) => e instanceof UsageError && pattern.test(e.message),
    );
  usage('openai:m', {}, /STAGECRAFT_MODEL_BASE_URL/);
  usage('openai', { STAGECRAFT_MODEL_BASE_URL: 'http://x/v1' }, /openai:MODEL.*STAGECRAFT_MODEL/);
  usage('openai:m', { STAGECRAFT_MODEL_BASE_URL: 'http://x/v1', STAGECRAFT_MODEL_TIMEOUT_MS: 'soon' }, /STAGECRAFT_MODEL_TIMEOUT_MS/);
  usage('claude:x', {}, /Unknown model "claude:x".*scripted:FILE.*openai:MODEL/);
  usage('scripted', {}, /Unknown model/);
  usage('scripted:missing.yaml', {}, /missing\.yaml not found/);
  usage('replay:run-1', {}, /stagecraft replay run-1/);
});

test('scripted:FOLDER is a usage error naming the folder, not an EISDIR read failure later', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-model-folder-'));
  mkdirSync(path.join(dir, 'scripts'));
  assert.throws(
    () => modelFromSpec('scripted:scripts', { bundleDir: dir, env: {} }),
    (e: Error) => e instanceof UsageError && e.message.startsWith(`Model script scripts is a folder (${path.join(dir, 'scripts')}), not a file: `),
  );
  assert.throws(
    () => modelFromSpec(`scripted:${dir}`, { bundleDir: dir, env: {} }),
    (e: Error) => e instanceof UsageError && e.message === `Model script ${dir} is a folder, not a file: name the script in it, e.g. scripted:${path.join(dir, 'model.yaml')}.`,
  );
});

// `scripted:NAME` took whatever existed first: a folder NAME in the bundle hid a script NAME in the working
// directory ("is a folder"). A file is taken over a folder; where both places hold a file, the bundle's.
test('scripted:NAME takes a file over a folder of that name, the bundle\'s file over the working directory\'s', async () => {
  const bundleDir = mkdtempSync(path.join(tmpdir(), 'sc-model-bundle-'));
  const cwd = mkdtempSync(path.join(tmpdir(), 'sc-model-cwd-'));
  mkdirSync(path.join(bundleDir, 'script'));
  writeFileSync(path.join(cwd, 'script'), 'turns:\n  - text: from cwd\n');
  assert.equal((await modelFromSpec('scripted:script', { bundleDir, env: {}, cwd }).invoke(request())).text, 'from cwd');
  assert.deepEqual(locateModelScript('script', bundleDir, cwd), { file: path.join(cwd, 'script'), folder: path.join(bundleDir, 'script'), other: null, candidates: [path.join(bundleDir, 'script'), path.join(cwd, 'script')] });
  writeFileSync(path.join(bundleDir, 'both.yaml'), 'turns:\n  - text: from the bundle\n');
  writeFileSync(path.join(cwd, 'both.yaml'), 'turns:\n  - text: from cwd\n');
  assert.equal((await modelFromSpec('scripted:both.yaml', { bundleDir, env: {}, cwd }).invoke(request())).text, 'from the bundle');
  assert.equal(locateModelScript('both.yaml', bundleDir, cwd).other, path.join(cwd, 'both.yaml'));
  // a folder in both places and no file: said with where it looked
  mkdirSync(path.join(bundleDir, 'dirs'));
  mkdirSync(path.join(cwd, 'dirs'));
  assert.throws(() => modelFromSpec('scripted:dirs', { bundleDir, env: {}, cwd }), (e: Error) => e instanceof UsageError && e.message.includes(`(no file of that name at ${path.join(bundleDir, 'dirs')} or ${path.join(cwd, 'dirs')})`));
});
