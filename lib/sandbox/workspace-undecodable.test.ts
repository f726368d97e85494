// Names that are not UTF-8 in a run's workspace: code makes them with bytes (`open(b"\xff", "w")`), and
// a listing decoded to text shows them with U+FFFD, a name no lstat finds. The walk counts them all the
// same — files and folders, what is below such a folder, with and without the memory of listings — and
// a step that writes past its quota under such names fails as any other (real CLI runs, real workers).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { attackBundle, pyStep } from '../server/escape/attack-bundle';
import { ListingMemory } from './workspace-listings';
import { measureWorkspace } from './workspace-usage';

const root = mkdtempSync(path.join(tmpdir(), 'sc-undecodable-'));
after(() => rmSync(root, { recursive: true, force: true }));
const QUOTA = { maxBytes: 1024 ** 3, maxFiles: 1000 };
const raw = (...parts: (string | Buffer)[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));

test('files and folders named with bytes that are not UTF-8 are counted, and what is below them', async () => {
  const ws = path.join(root, 'walk');
  mkdirSync(ws);
  writeFileSync(path.join(ws, 'plain'), 'x');
  writeFileSync(raw(ws, '/', Buffer.from([0xff, 0xfe])), Buffer.alloc(64 * 1024, 1));
  mkdirSync(raw(ws, '/', Buffer.from([0xc3]), 'dir'));
  writeFileSync(raw(ws, '/', Buffer.from([0xc3]), 'dir/', Buffer.from([0xff])), Buffer.alloc(64 * 1024, 2));
  writeFileSync(raw(ws, '/', Buffer.from([0xc3]), 'dir/ok'), 'y');
  // a name that is valid UTF-8 and holds U+FFFD itself is one entry, counted once
  writeFileSync(path.join(ws, 'real\uFFFDname'), 'z');
  const memory = new ListingMemory();
  for (const m of [undefined, memory, memory]) {
    const usage = await measureWorkspace(ws, QUOTA, undefined, m);
    assert.equal(usage.files, 6, 'plain, the two undecodable entries at the top, the two files below the folder, and real\uFFFDname');
    assert.ok(usage.bytes >= 128 * 1024, `the undecodable files' bytes are counted (${usage.bytes})`);
  }
  const over = await measureWorkspace(ws, { maxBytes: 100 * 1024, maxFiles: 1000 });
  assert.ok(over.isOver, 'past the quota by what is under undecodable names');
});

test('a step writing past the quota under names that are not UTF-8 fails its step on the quota', () => {
  const dir = attackBundle(root, 'undecodable_filler', {
    files: {
      'attack.py': `import os
def fill(v):
    os.makedirs(b"\\xffhidden", exist_ok=True)
    for i in range(8):
        with open(b"\\xffhidden/" + str(i).encode(), "wb") as f: f.write(os.urandom(1 << 20))
    with open(b"\\xfe", "wb") as f: f.write(os.urandom(2 << 20))
    return {"wrote_mb": 10}
`,
    },
    steps: pyStep('fill'),
  });
  const r = spawnSync(process.execPath, ['bin/stagecraft.mjs', 'run', dir, '--json'], {
    encoding: 'utf8',
    env: { ...process.env, STAGECRAFT_DATA_DIR: path.join(root, 'data'), STAGECRAFT_WORKSPACE_MAX_BYTES: '2M' },
  });
  const out = JSON.parse(r.stdout) as { status: string; error: { message: string } | null };
  assert.notEqual(out.status, 'completed', `10 MB in a 2 MB workspace: ${r.stdout.slice(0, 400)}`);
  assert.match(out.error?.message ?? '', /python function fill in attack\.py: the run's workspace is past its quota, holding more than 2097152 bytes on disk/);
  assert.equal(r.status, 1);
});
