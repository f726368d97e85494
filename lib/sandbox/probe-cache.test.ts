// The isolation probe's verdict kept in the data dir (probe-cache.ts), against a real bubblewrap: a
// second probe with the same binary runs no bwrap; a changed binary, a verdict filed under another
// key or a failed probe is probed again; a bwrap that does not work is never cached.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { isolationFor, probeBubblewrap } from './isolation';
import { PROBE_CACHE_FILE } from './probe-cache';

const REAL = isolationFor('auto');
let dir: string;
let log: string;
let wrapper: string;

/** a bwrap that notes each launch in `log`, then runs the real one (or fails, `isBroken`) */
function writeWrapper(isBroken = false, note = ''): void {
  const real = REAL.kind === 'bwrap' ? REAL.bwrap : '/bin/false';
  writeFileSync(wrapper, `#!/bin/sh\n# ${note}\necho launched >> ${JSON.stringify(log)}\n${isBroken ? 'echo "no namespaces here" >&2; exit 1' : `exec ${real} "$@"`}\n`);
  chmodSync(wrapper, 0o755);
}
const launches = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).length : 0);

describe('the probe verdict kept in the data dir', { skip: REAL.kind !== 'bwrap' || !REAL.seccomp ? 'needs a bubblewrap that takes the seccomp filter here' : false }, () => {
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'sc-probe-cache-'));
    log = path.join(dir, 'launches.log');
    wrapper = path.join(dir, 'bwrap');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('a second probe of the same binary runs no bwrap, and gives the same isolation', () => {
    const cacheDir = path.join(dir, 'data-1');
    writeWrapper();
    const first = probeBubblewrap(wrapper, { cacheDir });
    assert.equal(first.bwrap, wrapper);
    assert.ok(first.seccomp, 'the filter loads');
    assert.equal(launches(), 1, 'the filter is tried once, and works');
    assert.ok(existsSync(path.join(cacheDir, PROBE_CACHE_FILE)), 'the verdict is kept');
    const second = probeBubblewrap(wrapper, { cacheDir });
    assert.equal(launches(), 1, 'no bwrap ran the second time');
    assert.deepEqual(second, first);
  });

  test('a changed bwrap binary is probed again', () => {
    const cacheDir = path.join(dir, 'data-2');
    writeWrapper(false, 'v1');
    probeBubblewrap(wrapper, { cacheDir });
    const before = launches();
    writeWrapper(false, 'v2, a longer line: bubblewrap upgraded');
    probeBubblewrap(wrapper, { cacheDir });
    assert.equal(launches(), before + 1, 'the new binary ran');
    probeBubblewrap(wrapper, { cacheDir });
    assert.equal(launches(), before + 1, 'and its verdict is kept in turn');
  });

  test('a verdict filed under another key (another kernel, another filter) is not used', () => {
    const cacheDir = path.join(dir, 'data-3');
    writeWrapper();
    probeBubblewrap(wrapper, { cacheDir });
    const file = path.join(cacheDir, PROBE_CACHE_FILE);
    const kept = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...kept, key: 'f'.repeat(64) }));
    const before = launches();
    probeBubblewrap(wrapper, { cacheDir });
    assert.equal(launches(), before + 1);
  });

  test('a bwrap that cannot make namespaces is reported, never cached, and probed each time', () => {
    const cacheDir = path.join(dir, 'data-4');
    writeWrapper(true);
    const before = launches();
    const p = probeBubblewrap(wrapper, { cacheDir });
    assert.equal(p.bwrap, null);
    assert.match(p.reason, /cannot create namespaces here \(no namespaces here\)/);
    assert.equal(existsSync(path.join(cacheDir, PROBE_CACHE_FILE)), false);
    probeBubblewrap(wrapper, { cacheDir });
    assert.equal(launches(), before + 4, 'both attempts ran, both times');
  });

  test('a broken bwrap behind a kept verdict of the working one is probed again (its binary changed)', () => {
    const cacheDir = path.join(dir, 'data-5');
    writeWrapper();
    probeBubblewrap(wrapper, { cacheDir });
    writeWrapper(true, 'now broken, and a different size');
    assert.equal(probeBubblewrap(wrapper, { cacheDir }).bwrap, null);
  });
});
