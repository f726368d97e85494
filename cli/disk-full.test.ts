// A full disk under the data dir: `stagecraft run` said "internal error" with node's stack trace
// (ENOSPC, writing the data dir's lock) and left a temp file there per attempt. It says what happened,
// where, and what to do, in one line, exit 1 (--json: code disk_full), and leaves nothing behind.
// The full disk is a real one: a small tmpfs (root, where mount works; skipped elsewhere), filled.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { runCli } from './testing/spawn-cli';

const root = mkdtempSync(path.join(tmpdir(), 'sc-disk-full-'));
const mounted = process.getuid?.() === 0 && spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=48m', 'tmpfs', root]).status === 0;
after(() => {
  if (mounted) spawnSync('umount', ['-l', root]);
  rmSync(root, { recursive: true, force: true });
});

/** Writes to `file` until the disk is full. */
function fill(file: string): void {
  const fd = openSync(file, 'w');
  const block = Buffer.alloc(1 << 20);
  try {
    for (;;) writeSync(fd, block);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
  } finally {
    closeSync(fd);
  }
}

test('a run on a full disk says so in one line, what to do, and leaves no temp file', { skip: mounted ? false : 'no tmpfs to fill here (needs root and mount)' }, async () => {
  const dataDir = path.join(root, 'data');
  mkdirSync(dataDir);
  const env = { ...process.env, STAGECRAFT_DATA_DIR: dataDir, DATABASE_URL: '' };
  const made = await runCli(['runs'], { env }); // the store made while there is room
  assert.equal(made.code, 0, made.err);
  fill(path.join(root, 'filler'));
  const r = await runCli(['run', 'examples/summarize'], { env });
  assert.equal(r.code, 1, r.err);
  assert.equal(r.err, `stagecraft: No space left on the device (ENOSPC in write; this process writes under ${dataDir}). Free space on that disk (or give STAGECRAFT_DATA_DIR a folder on a disk with room), then try again.\n`);
  const json = await runCli(['run', 'examples/summarize', '--json'], { env });
  assert.equal(json.code, 1, json.err);
  assert.equal((JSON.parse(json.out) as { error: { code: string } }).error.code, 'disk_full');
  assert.deepEqual(readdirSync(dataDir).filter((f) => f.endsWith('.tmp')), [], 'no temp lock file left behind');
  // room again: the same data dir works, nothing of it lost
  rmSync(path.join(root, 'filler'));
  const again = await runCli(['run', 'examples/summarize'], { env });
  assert.equal(again.code, 0, again.err);
});
