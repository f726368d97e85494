// The benches that time our code run compiled (bench/run-compiled.mjs), as the shipped CLI is: package.json
// names the runner for each, and the runner really runs one (tiny) whose JSON line then says `compiled: true`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { COMPILED } from './compiled';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const scripts: Record<string, string> = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts;
const benches = Object.entries(scripts).filter(([name]) => name.startsWith('bench:'));

test('every bench:* script of TypeScript runs through bench/run-compiled.mjs, none through tsx', () => {
  const ts = benches.filter(([, cmd]) => /\.ts\b/.test(cmd));
  assert.ok(ts.length >= 10, `only ${ts.length} bench scripts of TypeScript: ${ts.map(([n]) => n).join(', ')}`);
  for (const [name, cmd] of benches) {
    assert.doesNotMatch(cmd, /\btsx\b/, `${name} runs through tsx: ${cmd}`);
    if (/\.ts\b/.test(cmd)) assert.match(cmd, /^node bench\/run-compiled\.mjs [\w/-]+\.ts$/, `${name} is not run compiled: ${cmd}`);
  }
  // and compare.sh compiles its harness the same way
  assert.match(readFileSync(path.join(ROOT, 'bench/compare.sh'), 'utf8'), /node bench\/run-compiled\.mjs --print bench\/bench-store\.ts/);
});

test("each bench's JSON line says whether it ran compiled", () => {
  for (const [name, cmd] of benches) {
    const entry = /(\S+\.ts)$/.exec(cmd)?.[1];
    if (!entry) continue;
    const text = readFileSync(path.join(ROOT, entry), 'utf8');
    // bench:store's lines go through bench-common's report(), which adds it
    assert.ok(/compiled: COMPILED/.test(text) || /\breport\(\{/.test(text), `${name} (${entry}) prints no \`compiled\``);
  }
  assert.match(readFileSync(path.join(ROOT, 'bench/bench-common.ts'), 'utf8'), /compiled: COMPILED/);
  assert.equal(COMPILED, false, 'this test runs through tsx: not compiled');
});

test('the runner compiles a bench once and runs it with plain node, passing its arguments on (tiny bench:kernel-run)', () => {
  const print = () => spawnSync(process.execPath, ['bench/run-compiled.mjs', '--print', 'bench/bench-kernel-run.ts'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  const first = print();
  assert.equal(first.status, 0, first.stderr);
  const module = first.stdout.trim();
  assert.match(module, /\/\.bench-build\/bench-kernel-run-[0-9a-f]{12}\/bench-kernel-run\.mjs$/);
  assert.ok(module.startsWith(path.join(ROOT, '.bench-build')), module);
  const made = statSync(module).mtimeMs;
  // what it was made from, the validators' generators and what they import included (their texts are
  // made once for every bench: precompiled.json), so an edit to any of them compiles it again
  const sources = (f: string) => (JSON.parse(readFileSync(path.join(ROOT, '.bench-build', f), 'utf8')).sources as { file: string }[]).map((s) => s.file);
  const own = sources('bench-kernel-run.json');
  for (const f of ['bench/bench-kernel-run.ts', 'lib/kernel/runner.ts', 'lib/skill/frontmatter-standalone.ts', 'bench/compile.mjs']) assert.ok(own.includes(f), f);
  const validators = sources('precompiled.json');
  assert.ok(validators.length > 2 && validators.every((f) => own.includes(f)), validators.join(' '));
  // nothing changed since: the module is reused, not compiled again
  assert.equal(print().stdout.trim(), module);
  assert.equal(statSync(module).mtimeMs, made);

  const r = spawnSync(process.execPath, ['bench/run-compiled.mjs', 'bench/bench-kernel-run.ts', '--', '--tiny', '--runs', '3', '--steps', '2'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  assert.equal(r.status, 0, r.stderr);
  const line = JSON.parse(r.stdout.split('\n').find((l) => l.startsWith('{'))!);
  assert.equal(line.compiled, true);
  assert.equal(line.harness, 'kernel');
  assert.equal(line.runs, 3);
  assert.equal(line.steps, 2);
});

test('the runner exits as its bench does, and says how to call it', () => {
  const bad = spawnSync(process.execPath, ['bench/run-compiled.mjs', 'bench/bench-kernel-run.ts', '--no-such-option'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  assert.notEqual(bad.status, 0);
  const usage = spawnSync(process.execPath, ['bench/run-compiled.mjs'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /usage: node bench\/run-compiled\.mjs <entry\.ts>/);
});
