// The contract between the route table, the route files and the browser, read from the source:
// - every entry of the table is served by the file its path names, with the method it names,
//   through handle(routes.<entry>) — and every handler of every route file is such an entry;
// - browser code (components/, app/ pages) reaches the API only through lib/client (callRoute,
//   routeQuery, openRouteStream): no fetch, no EventSource, no XMLHttpRequest, no '/api/' URL of
//   its own (the sign-in page's plain HTML form, which works before any script, excepted).
// That every answer parses with its view is proven against the built app (contract.http.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { routes } from './routes';
import { decodeQuery, encodeQuery, pathFor, pathParams } from './route-def';
import { z } from 'zod';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

/** entries declared ahead of the operation that will serve them (its helper fills the slot) */
const NOT_YET_SERVED = new Set<string>([]);

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

/** `/api/runs/:id/events` → `app/api/runs/[id]/events/route.ts` */
const fileOf = (apiPath: string) => path.join(root, 'app', ...apiPath.slice(1).split('/').map((s) => (s.startsWith(':') ? `[${s.slice(1)}]` : s)), 'route.ts');

test('every route of the table is served by its file, with its method, through handle(routes.<name>)', () => {
  for (const [name, r] of Object.entries(routes)) {
    const file = fileOf(r.path);
    if (NOT_YET_SERVED.has(name)) {
      assert.ok(!existsSync(file) || !readFileSync(file, 'utf8').includes(`routes.${name}`), `${name} is served now: take it out of NOT_YET_SERVED`);
      continue;
    }
    assert.ok(existsSync(file), `${name} (${r.method} ${r.path}) has no route file ${path.relative(root, file)}`);
    const text = readFileSync(file, 'utf8');
    assert.match(text, new RegExp(`export const ${r.method} = handle\\(routes\\.${name},`), `${path.relative(root, file)} serves ${name} as ${r.method}`);
  }
});

test('every handler of every route file is an entry of the table, at that path and method', () => {
  const files = walk(path.join(root, 'app', 'api')).filter((f) => f.endsWith('route.ts'));
  assert.ok(files.length >= 10);
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const exported = [...text.matchAll(/export (?:const|async function|function) (GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\b(.*)/g)];
    assert.ok(exported.length > 0, `${path.relative(root, file)} exports no handler`);
    for (const [, method, rest] of exported) {
      const m = /^ = handle\(routes\.(\w+),/.exec(rest);
      assert.ok(m, `${path.relative(root, file)}: ${method} is not made with handle(routes.<name>, …)`);
      const entry = (routes as Record<string, { method: string; path: string }>)[m[1]];
      assert.ok(entry, `${path.relative(root, file)}: routes.${m[1]} is not in the table`);
      assert.equal(entry.method, method, `${path.relative(root, file)}: routes.${m[1]} is a ${entry.method}`);
      assert.equal(fileOf(entry.path), file, `routes.${m[1]} (${entry.path}) belongs in ${path.relative(root, fileOf(entry.path))}`);
    }
  }
});

test('no two entries share a method and path; every path param is declared, and only those', () => {
  const seen = new Set<string>();
  for (const [name, r] of Object.entries(routes)) {
    const k = `${r.method} ${r.path}`;
    assert.ok(!seen.has(k), `${name}: ${k} twice`);
    seen.add(k);
    const declared = 'params' in r && r.params ? Object.keys((r.params as z.ZodObject).shape).sort() : [];
    assert.deepEqual(declared, pathParams(r.path).sort(), `${name}: params of ${r.path}`);
    assert.ok(r.summary.length > 5, `${name} says what it does`);
  }
});

test('browser code calls the API only through lib/client: no fetch, EventSource, XMLHttpRequest or API URL of its own', () => {
  const browser = [...walk(path.join(root, 'components')), ...walk(path.join(root, 'app')).filter((f) => !f.includes(`${path.sep}api${path.sep}`))].filter(
    (f) => /\.tsx?$/.test(f) && !f.endsWith('.test.ts'),
  );
  assert.ok(browser.length > 20);
  const offenders: string[] = [];
  for (const file of browser) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      const code = line.replace(/\/\/.*$/, '');
      const plainForm = /<form method="post" action="\/api\/session"/.test(code);
      if (/\bfetch\(|new EventSource\(|XMLHttpRequest|\bapi<|\bapi\(/.test(code) || (/['"`]\/api\//.test(code) && !plainForm)) offenders.push(`${path.relative(root, file)}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(offenders, [], 'use callRoute / routeQuery / openRouteStream (lib/client)');
  // and the client itself derives every URL from the table
  const client = readFileSync(path.join(root, 'lib/client/api.ts'), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '');
  assert.doesNotMatch(client, /['"`]\/api\//, 'lib/client names no route of its own');
  assert.doesNotMatch(client, /\bas T\b/, 'answers are typed by the table, never cast');
});

test('paths and queries round-trip: params are encoded, a query object becomes the text its schema decodes back', () => {
  assert.equal(pathFor('/api/runs/:id/events', { id: 'run a/b' }), '/api/runs/run%20a%2Fb/events');
  assert.throws(() => pathFor('/api/runs/:id', {}), /needs its id/);
  const q = routes.listRuns.query;
  const wanted = { skill: 'summarize', status: ['failed', 'aborted'], attention: true, limit: 20, from: 5, q: 'a,b? c' };
  const text = encodeQuery(wanted);
  // a list is comma-joined: a search with a comma in it is a single value, not a list
  const decoded = q.parse(decodeQuery(q, new URLSearchParams(text.slice(1))));
  assert.deepEqual(decoded, wanted);
  assert.equal(encodeQuery({ a: undefined, b: null }), '');
  // what the schema does not take is left for it to refuse
  const bad = q.safeParse(decodeQuery(q, new URLSearchParams('limit=abc&attention=maybe&status=sleeping')));
  assert.equal(bad.success, false);
  assert.deepEqual(bad.error!.issues.map((i) => i.path[0]).sort(), ['attention', 'limit', 'status']);
});

test('the abort route answers 200 once the run is aborted, 202 while its driver has yet to stop it', () => {
  const answer = routes.abortRun.answer;
  const status = (a: { status: 'aborted' | 'aborting' }) => answer.statusOf?.({ runId: 'r', error: null, abortedChildren: [], ...a }) ?? answer.status;
  assert.equal(status({ status: 'aborted' }), 200);
  assert.equal(status({ status: 'aborting' }), 202);
  assert.equal(answer.schema.safeParse({ runId: 'r', status: 'aborting', error: null, abortedChildren: [] }).success, true);
  assert.equal(answer.schema.safeParse({ runId: 'r', status: 'running', error: null, abortedChildren: [] }).success, false);
});
