// The bundled packages' code cache (vendor-cache.mjs), in real child processes: the first process
// writes it as it exits and the next one compiles from it; a damaged cache, one made from another
// vendor.cjs, one V8 turns down, or none at all still runs the file as it is (and the cache is
// written again); each set of V8 flags has a cache of its own. Then the built command: a run leaves
// its cache beside vendor.cjs, uses it the next time, and a damaged one changes nothing it prints.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../cli/testing/spawn-cli';

const root = mkdtempSync(path.join(tmpdir(), 'sc-vendor-cache-'));
after(() => rmSync(root, { recursive: true, force: true }));
const RUNTIME = pathToFileURL(path.join(ROOT, 'scripts', 'vendor-cache.mjs')).href;

/** a vendor.cjs of its own: a module whose export tells the file it came from */
function vendorFile(name: string, answer: string): string {
  const file = path.join(root, name, 'vendor.cjs');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `module.exports = { answer: () => ({ value: ${JSON.stringify(answer)}, padding: ${JSON.stringify('x'.repeat(2000))}.length }) };\n`);
  return file;
}

/** loads `file` in a fresh node (after setting `flags` through setV8Flag): what it answered and whether the cache was used */
function load(file: string, flags: string[] = []): { value: string; cacheUsed: boolean; cacheFile: string } {
  // one text for every call (node's options, -e's text among them, name the cache too): what differs comes in the environment
  const code = `const m = await import(${JSON.stringify(RUNTIME)});
for (const f of JSON.parse(process.env.FLAGS)) m.setV8Flag(f);
const v = m.loadVendor(process.env.FILE);
console.log(JSON.stringify({ value: v.exports.answer().value, cacheUsed: v.cacheUsed, cacheFile: m.cacheFileFor(process.env.FILE) }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8', env: { ...process.env, FLAGS: JSON.stringify(flags), FILE: file } });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as { value: string; cacheUsed: boolean; cacheFile: string };
}

const caches = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.v8cache'));

describe('loadVendor', () => {
  test('no cache: compiled as it is, and the cache written as the process exits; the next process compiles from it', () => {
    const file = vendorFile('fresh', 'one');
    const first = load(file);
    assert.deepEqual([first.value, first.cacheUsed], ['one', false]);
    assert.deepEqual(caches(path.dirname(file)), [path.basename(first.cacheFile)]);
    const second = load(file);
    assert.deepEqual([second.value, second.cacheUsed], ['one', true]);
  });

  test('a damaged cache (bytes changed, cut short, emptied) is not used, the file runs as it is, and the cache is written again', () => {
    const file = vendorFile('damaged', 'two');
    const { cacheFile } = load(file);
    const good = readFileSync(cacheFile);
    const flipped = Buffer.from(good);
    for (let i = good.length - 200; i < good.length - 100; i++) flipped[i] ^= 0xff;
    for (const bad of [flipped, good.subarray(0, good.length >> 1), Buffer.alloc(0)]) {
      writeFileSync(cacheFile, bad);
      assert.deepEqual(load(file), { value: 'two', cacheUsed: false, cacheFile });
      assert.deepEqual(load(file), { value: 'two', cacheUsed: true, cacheFile }, 'written again');
    }
  });

  test("a cache V8 turns down (its checksum right, its data not V8's) is not used, and is replaced", () => {
    const file = vendorFile('rejected', 'three');
    const { cacheFile } = load(file);
    const junk = Buffer.alloc(4096, 7);
    const head = readFileSync(cacheFile).toString('latin1').split('\n')[0].split(' ');
    head[3] = createHash('sha256').update(junk).digest('hex');
    writeFileSync(cacheFile, Buffer.concat([Buffer.from(`${head.join(' ')}\n`, 'latin1'), junk]));
    assert.deepEqual(load(file), { value: 'three', cacheUsed: false, cacheFile });
    assert.deepEqual(load(file), { value: 'three', cacheUsed: true, cacheFile });
  });

  test('a cache made from another vendor.cjs (the file rebuilt in place) is not used: the new file runs', () => {
    const file = vendorFile('stale', 'four');
    const { cacheFile } = load(file);
    assert.equal(load(file).cacheUsed, true);
    // the same length, other code: V8 itself would take the old cache for it
    writeFileSync(file, readFileSync(file, 'utf8').replace('"four"', '"fivE"'));
    assert.deepEqual(load(file), { value: 'fivE', cacheUsed: false, cacheFile });
    assert.deepEqual(load(file), { value: 'fivE', cacheUsed: true, cacheFile });
  });

  test('each set of V8 flags set through setV8Flag has a cache of its own (V8 takes a cache made under the same flags only)', () => {
    const file = vendorFile('flags', 'six');
    const plain = load(file);
    const liftoff = load(file, ['--liftoff-only', '--liftoff-only']);
    assert.notEqual(liftoff.cacheFile, plain.cacheFile);
    assert.equal(liftoff.cacheUsed, false);
    assert.equal(load(file, ['--liftoff-only']).cacheUsed, true, 'a flag set twice is one set of flags');
    assert.equal(load(file).cacheUsed, true, "the plain one's cache is still there");
    assert.equal(caches(path.dirname(file)).length, 2);
  });
});

test('the built command: a run leaves its cache beside vendor.cjs and uses it next time; a damaged one changes nothing it prints', () => {
  const env: NodeJS.ProcessEnv = { ...process.env, STAGECRAFT_DATA_DIR: path.join(root, 'data'), STAGECRAFT_SANDBOX: 'off' };
  delete env.DATABASE_URL;
  const summarize = path.join(ROOT, 'examples', 'summarize');
  const run = () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'stagecraft.mjs'), 'run', summarize, '--input', path.join(summarize, 'input.json'), '--json'], { env, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const { status, output } = JSON.parse(r.stdout) as { status: string; output: unknown };
    return { status, output };
  };
  const first = run();
  assert.equal(first.status, 'completed');
  const build = (JSON.parse(readFileSync(path.join(ROOT, 'dist', 'manifest.json'), 'utf8')) as { build: string }).build;
  const dir = path.join(ROOT, 'dist', build);
  const made = caches(dir).map((f) => path.join(dir, f));
  assert.ok(made.length >= 1, 'a cache beside vendor.cjs');
  const stamp = () => made.map((f) => `${statSync(f).mtimeMs} ${statSync(f).ino}`);
  const before = stamp();
  assert.deepEqual(run(), first);
  assert.deepEqual(stamp(), before, 'used, not written again');
  for (const f of made) writeFileSync(f, Buffer.from('stagecraft-v8cache-2 1 2 3\ngarbage'));
  assert.deepEqual(run(), first);
  assert.notDeepEqual(stamp(), before, 'written again');
});
