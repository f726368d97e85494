// What a worker may use, against real workers: a small /tmp and /dev/shm, a read-only /dev, one
// memory limit for its whole tree (tmpfs pages included), and nothing a step started outlives it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import type { Json } from '../kernel/json';
import type { CodeSandbox } from '../kernel/ports';
import { cgroupStatus } from './cgroups';
import { createCodeSandbox, type CodeSandboxOptions } from './sandbox';
import { isolationFor, type Isolation } from './isolation';
import { processCommandLines } from './processes';

const dir = mkdtempSync(path.join(tmpdir(), 'sc-resources-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const PY = path.join(dir, 'res.py');
const TS = path.join(dir, 'res.ts');
writeFileSync(
  PY,
  `import os, subprocess, sys
TOKEN = os.urandom(8).hex()

def fill(v):
    written = 0
    chunk = b"x" * (1024 * 1024)
    try:
        with open(os.path.join(v["where"], "fill.bin"), "wb") as f:
            for _ in range(v["mb"]):
                f.write(chunk); f.flush(); written += 1
    except OSError as e:
        return {"written_mb": written, "error": e.strerror}
    return {"written_mb": written, "error": None}

def mounts(v):
    out = {}
    for p in ("/tmp", "/dev/shm"):
        s = os.statvfs(p)
        out[p] = s.f_blocks * s.f_frsize
    try:
        open("/dev/planted", "w")
        out["dev"] = "writable"
    except OSError as e:
        out["dev"] = e.strerror
    open("/dev/shm/small", "w").write("ok")
    out["null"] = open("/dev/null", "w").write("x")
    return out

def spawn(v):
    p = subprocess.Popen(["sleep", v["marker"]], start_new_session=True)
    # a grandchild re-parented away from the worker: only the cgroup (or the sandbox's pid 1) still knows it
    subprocess.Popen(["sh", "-c", f"setsid sleep {v['marker']}1 & exit 0"]).wait()
    return {"token": TOKEN}

def alive(v):
    return {"token": TOKEN}

import threading
WAITING = threading.Event()
THREADS = []

def leave_thread(v):
    t = threading.Thread(target=WAITING.wait)
    t.start()
    THREADS.append(t)
    return {"token": TOKEN}

def thread_for_process(v):
    # one task ends (the thread the last step left), one begins (the stray): as many tasks as before
    WAITING.set()
    THREADS.pop().join()
    subprocess.Popen(["sleep", v["marker"]], start_new_session=True)
    return {"token": TOKEN}

def tree(v):
    # four children each holding 40 MiB: each fits its own RLIMIT_AS, together they pass the tree's limit
    kids = [subprocess.Popen([sys.executable, "-c", "import time; b = bytearray(40 * 1024 * 1024); b[::4096] = b'x' * len(b[::4096]); time.sleep(3)"]) for _ in range(4)]
    return {"codes": [k.wait() for k in kids]}
`,
);
writeFileSync(TS, 'export function hello(v: { n: number }): { n: number; pid: number } { return { n: v.n + 1, pid: process.pid }; }\n');

const BWRAP = isolationFor('auto');
const NONE: Isolation = { kind: 'none', reason: 'the test asks for plain child processes' };
const MODES: [string, Isolation][] = [['unisolated', NONE], ...(BWRAP.kind === 'bwrap' ? [['in bubblewrap', BWRAP] as [string, Isolation]] : [])];
const cgroups = cgroupStatus();

async function withSandbox<T>(opts: CodeSandboxOptions, fn: (s: CodeSandbox) => Promise<T>): Promise<T> {
  const sandbox = createCodeSandbox({ workDir: dir, ...opts });
  try {
    return await fn(sandbox);
  } finally {
    await sandbox.close();
  }
}
const py = (s: CodeSandbox, fn: string, input: Json = {}) => s.call({ language: 'python', modulePath: PY, exportName: fn, input, timeoutMs: 30_000 }) as Promise<Record<string, Json>>;

describe('in bubblewrap: /tmp, /dev and /dev/shm', { skip: BWRAP.kind === 'bwrap' ? false : 'no bubblewrap here' }, () => {
  test('/tmp is a tmpfs of the configured size (64 MiB by default), /dev/shm 16 MiB, /dev read-only', async () => {
    await withSandbox({ isolation: BWRAP }, async (s) => {
      const m = await py(s, 'mounts');
      assert.equal(m['/tmp'], 64 * 1024 * 1024);
      assert.equal(m['/dev/shm'], 16 * 1024 * 1024);
      assert.equal(m.dev, 'Read-only file system');
      assert.equal(m.null, 1, '/dev/null still works');
    });
    await withSandbox({ isolation: BWRAP, tmpBytes: 8 * 1024 * 1024 }, async (s) => {
      assert.equal((await py(s, 'mounts'))['/tmp'], 8 * 1024 * 1024);
      const filled = await py(s, 'fill', { where: '/tmp', mb: 200 });
      assert.equal(filled.error, 'No space left on device');
      assert.ok((filled.written_mb as number) <= 8, `wrote ${filled.written_mb} MiB into an 8 MiB /tmp`);
    });
  });

  test('the memory limit counts /tmp: a worker filling a large /tmp past its memory limit is stopped', { skip: cgroups.memory ? false : cgroups.reason }, async () => {
    await withSandbox({ isolation: BWRAP, tmpBytes: 512 * 1024 * 1024, memoryLimitMb: 64 }, async (s) => {
      const err = await py(s, 'fill', { where: '/tmp', mb: 300 }).then(
        (r) => r,
        (e: Error) => e,
      );
      // the kernel either refuses the page (ENOMEM) or kills the worker for its cgroup: never 300 MiB of RAM
      if (err instanceof Error) assert.match(err.message, /hit the sandbox memory limit of 64 MB.*counts the worker and every process it started, and what they keep in \/tmp/s);
      else assert.ok((err.written_mb as number) < 64 && err.error, `wrote ${err.written_mb} MiB of RAM-backed /tmp under a 64 MiB limit`);
    });
  });
});

for (const [mode, isolation] of MODES) {
  describe(`${mode}: the worker's whole tree`, () => {
    test('what a step started is killed when the step ends — setsid and re-parented too; the warm worker stays', async () => {
      const marker = `4${Math.floor(Math.random() * 1e6)}`;
      await withSandbox({ isolation }, async (s) => {
        const first = await py(s, 'spawn', { marker });
        const left = processCommandLines().filter((l) => l.includes(`sleep ${marker}`));
        assert.deepEqual(left, [], 'a process the step started is still running after it');
        assert.equal((await py(s, 'alive')).token, first.token, 'the worker itself is kept warm');
      });
    });

    // the cgroup's count of tasks (pids.current: threads too) is as it was after the step: only its listing tells
    test('a step that ends a thread it left and starts a process in its place: the process is still killed', async () => {
      const marker = `5${Math.floor(Math.random() * 1e6)}`;
      await withSandbox({ isolation }, async (s) => {
        const first = await py(s, 'leave_thread');
        await py(s, 'thread_for_process', { marker });
        const left = processCommandLines().filter((l) => l.includes(`sleep ${marker}`));
        assert.deepEqual(left, [], 'a process the step started is still running after it');
        assert.equal((await py(s, 'alive')).token, first.token, 'the worker itself is kept warm');
      });
    });

    test('a TypeScript worker keeps its compiler between steps (it was started before the first step)', async () => {
      await withSandbox({ isolation }, async (s) => {
        const call = (n: number) => s.call({ language: 'node', modulePath: TS, exportName: 'hello', input: { n }, timeoutMs: 30_000 }) as Promise<{ n: number; pid: number }>;
        const a = await call(1);
        const b = await call(2);
        assert.equal(b.n, 3);
        assert.equal(b.pid, a.pid, 'the same worker');
      });
    });

    test('the memory limit is the tree’s: children that each fit their own limit are killed together past it', { skip: cgroups.memory ? false : cgroups.reason }, async () => {
      await withSandbox({ isolation, memoryLimitMb: 96 }, async (s) => {
        const out = await py(s, 'tree').then(
          (r) => r.codes as number[],
          () => null, // the worker itself was the one killed: also the tree's limit at work
        );
        if (out) assert.ok(out.some((c) => c === -9), `no child was killed: ${JSON.stringify(out)}`);
      });
    });
  });
}
