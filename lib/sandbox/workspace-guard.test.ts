// A run's workspace against code that fills it or plants a repository in it, with real workers, with
// and without bubblewrap: the quota of bytes and files, one file never past it, and `.git`.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Json } from '../kernel/json';
import type { CodeSandbox } from '../kernel/ports';
import { createCodeSandbox } from './sandbox';
import { WorkspaceGuard } from './workspace-guard';
import { isolationFor, type Isolation } from './isolation';
import { RACY_MS } from './workspace-listings';
import { measureWorkspace, MAX_WALK_DEPTH, sizeFromEnv, workspaceQuotaFromEnv, type WorkspaceQuota } from './workspace-usage';

const root = mkdtempSync(path.join(tmpdir(), 'sc-guard-'));
after(() => rmSync(root, { recursive: true, force: true }));
const CODE = path.join(root, 'code');
mkdirSync(CODE);
const PY = path.join(CODE, 'ws.py');
const JS = path.join(CODE, 'ws.mjs');
writeFileSync(JS, `import { readFileSync } from 'node:fs';\nexport function leak(v) { try { return { text: readFileSync(v.path, 'utf8') }; } catch (e) { return { error: e.code }; } }\n`);
writeFileSync(
  PY,
  `import os
def files(v):
    for i in range(v["n"]):
        open(f"f{i}.txt", "w").write("x")
    return {"made": v["n"]}

def big(v):
    try:
        with open("big.bin", "wb") as f:
            for _ in range(v["mb"]):
                f.write(b"x" * 1048576)
    except OSError as e:
        return {"error": e.strerror}
    return {"error": None}

def forever(v):
    i = 0
    while True:
        with open(f"chunk{i}.bin", "wb") as f:
            f.write(b"x" * 262144)
        i += 1

def hook(v):
    try:
        os.makedirs(os.path.dirname(v["path"]), exist_ok=True)
        open(v["path"], "w").write("#!/bin/sh\\necho owned\\n")
        return {"wrote": True}
    except OSError as e:
        return {"wrote": False, "error": e.strerror}

def ok(v):
    return {"ok": True}

def sparse(v):
    os.makedirs(v["dir"], exist_ok=True)
    with open(v["dir"] + "/data.bin", "wb") as f:
        f.truncate(v["mb"] * 1048576)
    return {"ok": True}

def fill_mapped(v):
    import mmap
    with open(v["dir"] + "/data.bin", "r+b") as f:
        m = mmap.mmap(f.fileno(), 0)
        for i in range(0, len(m), 4096):
            m[i] = 1
        m.close()
    return {"ok": True}

def fill_then_sleep(v):
    for i in range(v["n"]):
        open("f%d" % i, "w").close()
    import time
    time.sleep(v["seconds"])
    return {"ok": True}

def git_then_wait(v):
    os.makedirs(".git/hooks", exist_ok=True)
    import time
    time.sleep(v["seconds"])
    return {"ok": True}

def leak(v):
    try:
        return {"text": open(v["path"]).read()}
    except OSError as e:
        return {"error": e.strerror}

def swap_git(v):
    tries = {
        "rename": lambda: os.rename(".git", "git-away"),
        "link over it": lambda: (os.symlink("/etc", "lnk"), os.rename("lnk", ".git")),
        "rename a folder over it": lambda: (os.makedirs("other", exist_ok=True), os.rename("other", ".git")),
        "remove": lambda: os.rmdir(".git"),
    }
    out = {}
    for name, attempt in tries.items():
        try:
            attempt()
            out[name] = "done"
        except OSError as e:
            out[name] = e.strerror
    return out

def plant_and_hang(v):
    for p in v["paths"]:
        os.makedirs(p + "/hooks", exist_ok=True)
        open(p + "/hooks/pre-commit", "w").write("#!/bin/sh\\necho owned\\n")
    open("planted", "w").write("yes")
    import time
    time.sleep(600)
`,
);

const BWRAP = isolationFor('auto');
const NONE: Isolation = { kind: 'none', reason: 'plain child processes' };
const MODES: [string, Isolation][] = [['unisolated', NONE], ...(BWRAP.kind === 'bwrap' ? [['in bubblewrap', BWRAP] as [string, Isolation]] : [])];
const QUOTA: WorkspaceQuota = { maxBytes: 4 * 1024 * 1024, maxFiles: 50 };

let n = 0;
function workspace(): string {
  const ws = path.join(root, `ws${++n}`);
  mkdirSync(ws);
  return ws;
}
async function inSandbox<T>(
  ws: string,
  isolation: Isolation,
  quota: WorkspaceQuota | null,
  fn: (call: (f: string, input?: Json) => Promise<Json>) => Promise<T>,
  gitBaselineFile?: string,
  isMadeWorkspace?: boolean,
): Promise<T> {
  const sandbox: CodeSandbox = createCodeSandbox({ isolation, workDir: ws, workspaceQuota: quota, bundleDir: CODE, gitBaselineFile, isMadeWorkspace });
  try {
    return await fn((f, input = {}) => sandbox.call({ language: 'python', modulePath: PY, exportName: f, input, timeoutMs: 20_000 }));
  } finally {
    await sandbox.close();
  }
}
async function rejection(p: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await p;
  } catch (e) {
    return e as Error & { code?: string };
  }
  assert.fail('expected the call to fail');
}

test('measuring: blocks on disk (a sparse file costs what it wrote), every entry counted, links never followed, too deep refused', async () => {
  const ws = workspace();
  writeFileSync(path.join(ws, 'a.txt'), 'x'.repeat(10_000));
  writeFileSync(path.join(ws, 'sparse.bin'), '');
  truncateSync(path.join(ws, 'sparse.bin'), 1_900_000_000);
  mkdirSync(path.join(ws, 'sub'));
  symlinkSync('/', path.join(ws, 'sub', 'root'));
  // at the top too (its entries are looked up by path, those below through a descriptor): a link to a
  // folder and one to a large file outside the workspace are counted as links, never followed
  symlinkSync('/', path.join(ws, 'root'));
  const outside = path.join(workspace(), 'big.bin');
  writeFileSync(outside, Buffer.alloc(4 * 1024 * 1024, 1));
  symlinkSync(outside, path.join(ws, 'big'));
  const u = await measureWorkspace(ws, { maxBytes: 1024 ** 3, maxFiles: 100 });
  assert.equal(u.files, 6, 'a.txt, sparse.bin, sub, sub/root, root, big');
  assert.ok(u.bytes < 1024 * 1024, `counted ${u.bytes} bytes: the sparse file and what the link points at are not`);
  assert.equal(u.isOver, false);
  let deep = path.join(ws, 'deep');
  for (let i = 0; i <= MAX_WALK_DEPTH + 1; i++) deep = path.join(deep, 'd');
  mkdirSync(deep, { recursive: true });
  const over = await measureWorkspace(ws, { maxBytes: 1024 ** 3, maxFiles: 100_000 });
  assert.equal(over.tooDeep, true);
  // a workspace that is gone, or is not a folder, is an error, never an empty workspace
  await assert.rejects(measureWorkspace(path.join(ws, 'gone'), { maxBytes: 1, maxFiles: 1 }), /ENOENT/);
  await assert.rejects(measureWorkspace(path.join(ws, 'a.txt'), { maxBytes: 1, maxFiles: 1 }), /ENOTDIR/);
});

test('a folder of 200,000 entries (made between two measurements) is not listed whole: the event loop is never held for the listing', async () => {
  // on tmpfs when there is one: the entries are made in a second rather than ten
  const base = existsSync('/dev/shm') ? mkdtempSync('/dev/shm/sc-guard-') : workspace();
  try {
    const ws = path.join(base, 'ws');
    mkdirSync(path.join(ws, 'd'), { recursive: true });
    // a real process makes them, as a thread a step left running would, while no step is watched
    const made = spawnSync('python3', ['-c', 'import os\nfor i in range(200000): os.close(os.open("f%07d" % i, os.O_CREAT | os.O_WRONLY))'], { cwd: path.join(ws, 'd') });
    assert.equal(made.status, 0, String(made.stderr));
    const t = performance.now();
    readdirSync(path.join(ws, 'd'));
    const listMs = performance.now() - t;
    let longest = 0;
    let last = performance.now();
    const tick = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 1);
    const u = await measureWorkspace(ws, { maxBytes: 1024 ** 3, maxFiles: 1000 });
    clearInterval(tick);
    longest = Math.max(longest, performance.now() - last);
    assert.equal(u.isOver, true);
    assert.ok(longest < listMs / 3, `the event loop was held ${longest.toFixed(1)} ms at once; listing the folder whole takes ${listMs.toFixed(1)} ms`);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

test('8,000 `.git` made 120 folders down are renamed where the walk finds them: the step fails, the event loop is never held for long', async () => {
  const base = existsSync('/dev/shm') ? mkdtempSync('/dev/shm/sc-guard-') : workspace();
  try {
    const ws = path.join(base, 'ws');
    mkdirSync(ws);
    const guard = new WorkspaceGuard(ws, { maxBytes: 1024 ** 3, maxFiles: 10_000 });
    await guard.before();
    // as a step would (a real process): every letter case of .git, in 1,000 folders at the bottom of a deep chain
    const made = spawnSync(
      'python3',
      ['-c', 'import os\nd = "/".join(["d"] * 120)\nfor i in range(1000):\n    os.makedirs(f"{d}/l{i}")\n    for n in (".git", ".Git", ".gIt", ".GIt", ".giT", ".GiT", ".gIT", ".GIT"): open(f"{d}/l{i}/{n}", "w").close()'],
      { cwd: ws },
    );
    assert.equal(made.status, 0, String(made.stderr));
    let longest = 0;
    let last = performance.now();
    const tick = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 1);
    const error = await rejection(guard.after('step 1'));
    clearInterval(tick);
    longest = Math.max(longest, performance.now() - last);
    assert.ok(longest < 300, `the event loop was held ${longest.toFixed(0)} ms at once`);
    assert.equal(error.code, 'workspace_git_refused');
    assert.match(error.message, /and 7990 more/);
    const leaf = path.join(ws, ...Array(120).fill('d'), 'l999');
    assert.ok(readdirSync(leaf).every((n) => /\.refused-/.test(n)), readdirSync(leaf).join(' '));
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

test('the quota from the environment: defaults 1 GiB and 10,000; sizes with K, M, G; bad values named', () => {
  assert.deepEqual(workspaceQuotaFromEnv({}), { maxBytes: 1024 ** 3, maxFiles: 10_000 });
  assert.deepEqual(workspaceQuotaFromEnv({ STAGECRAFT_WORKSPACE_MAX_BYTES: '512M', STAGECRAFT_WORKSPACE_MAX_FILES: '20' }), { maxBytes: 512 * 1024 ** 2, maxFiles: 20 });
  assert.equal(sizeFromEnv({ X: '2G' }, 'X', 1), 2 * 1024 ** 3);
  assert.equal(sizeFromEnv({ X: '4096' }, 'X', 1), 4096);
  assert.throws(() => workspaceQuotaFromEnv({ STAGECRAFT_WORKSPACE_MAX_BYTES: 'lots' }), /STAGECRAFT_WORKSPACE_MAX_BYTES="lots": give a size in bytes/);
  assert.throws(() => workspaceQuotaFromEnv({ STAGECRAFT_WORKSPACE_MAX_FILES: '-1' }), /STAGECRAFT_WORKSPACE_MAX_FILES="-1": give a whole number above 0/);
});

for (const [mode, isolation] of MODES) {
  describe(`${mode}: the workspace quota`, () => {
    test('a step that makes more files than the quota fails with a clear error; within it, the next step runs', async () => {
      await inSandbox(workspace(), isolation, QUOTA, async (call) => {
        assert.deepEqual(await call('files', { n: 10 }), { made: 10 });
        const e = await rejection(call('files', { n: 100 }));
        assert.equal(e.code, 'workspace_quota_exceeded');
        assert.match(e.message, /python function files in .*: the run's workspace is past its quota, holding more than 50 files and folders.*STAGECRAFT_WORKSPACE_MAX_FILES/s);
      });
    });

    test('a file past the quota in bytes fails its step', async () => {
      await inSandbox(workspace(), isolation, QUOTA, async (call) => {
        const e = await rejection(call('big', { mb: 10 }));
        assert.equal(e.code, 'workspace_quota_exceeded');
        assert.match(e.message, /past its quota, holding more than 4194304 bytes on disk/);
      });
    });

    // what a shortcut of the walk after a step must not miss: no folder changes (their times stay), no write
    // call is made (a process's write counters stay; inotify reports no modify for a mapping), nothing need
    // reach the disk (block I/O counters stay): only the file's own blocks grow, and the walk stats every entry
    test('a file a step made grows in place past the quota, three folders down, through a shared mapping: its next step fails', async () => {
      const ws = workspace();
      await inSandbox(ws, isolation, QUOTA, async (call) => {
        assert.deepEqual(await call('sparse', { dir: 'a/b/c', mb: 8 }), { ok: true }); // 8 MiB that take no blocks
        await sleep(RACY_MS + 20); // the folders' listings are kept: only their entries are stat'ed
        const folders = ['', 'a', 'a/b', 'a/b/c'].map((rel) => path.join(ws, rel));
        const times = () => folders.map((f) => statSync(f, { bigint: true })).map((st) => `${st.ctimeNs} ${st.mtimeNs}`);
        const before = times();
        const e = await rejection(call('fill_mapped', { dir: 'a/b/c' }));
        assert.equal(e.code, 'workspace_quota_exceeded');
        assert.match(e.message, /python function fill_mapped in .*past its quota, holding more than 4194304 bytes on disk/s);
        assert.deepEqual(times(), before);
      });
    });

    test('a step writing without end is stopped while it runs, for its quota (not left to its timeout)', async () => {
      await inSandbox(workspace(), isolation, QUOTA, async (call) => {
        const e = await rejection(call('forever'));
        assert.equal(e.code, 'workspace_quota_exceeded');
        // the workspace stays past its quota: the next step fails too, until the files go
        assert.equal((await rejection(call('ok'))).code, 'workspace_quota_exceeded');
      });
    });

    test('the poll outlives idle spells and serves steps side by side: after short steps and a pause, two steps writing without end are both stopped', async () => {
      const sandbox = createCodeSandbox({ isolation, workDir: workspace(), workspaceQuota: QUOTA, bundleDir: CODE, maxWorkersPerLanguage: 2 });
      const call = (f: string) => sandbox.call({ language: 'python', modulePath: PY, exportName: f, input: {}, timeoutMs: 20_000 });
      try {
        for (let i = 0; i < 3; i++) await call('ok');
        await new Promise((r) => setTimeout(r, 600)); // the poll, armed during those steps, fires with no step running
        const started = performance.now();
        const [a, b] = await Promise.all([rejection(call('forever')), rejection(call('forever'))]);
        assert.equal(a.code, 'workspace_quota_exceeded', a.message);
        assert.equal(b.code, 'workspace_quota_exceeded', b.message);
        const elapsed = performance.now() - started;
        assert.ok(elapsed < 10_000, `stopped after ${elapsed.toFixed(0)} ms (their timeout is 20 s)`);
      } finally {
        await sandbox.close();
      }
    });

    test('a .git code makes fails its step and is renamed, at the top and deeper down; never deleted', async () => {
      const ws = workspace();
      await inSandbox(ws, isolation, QUOTA, async (call) => {
        const e = await rejection(call('hook', { path: 'vendor/lib/.git/hooks/pre-commit' }));
        assert.equal(e.code, 'workspace_git_refused');
        assert.match(e.message, /made vendor\/lib\/\.git in the run's workspace\. Code may not make a git repository there/);
        const top = await rejection(call('hook', { path: '.git/hooks/pre-commit' }));
        assert.match(top.message, /made \.git in the run's workspace/);
      });
      assert.equal(existsSync(path.join(ws, '.git')), false);
      assert.equal(existsSync(path.join(ws, 'vendor/lib/.git')), false);
      const renamed = readdirSync(path.join(ws, 'vendor/lib')).find((f) => f.startsWith('.git.refused-'));
      assert.ok(renamed, 'renamed, not deleted');
      assert.match(readFileSync(path.join(ws, 'vendor/lib', renamed!, 'hooks/pre-commit'), 'utf8'), /owned/);
    });
  });
}

describe('a workspace that is a git repository (a folder named with --workspace: no quota)', () => {
  const repo = () => {
    const ws = workspace();
    mkdirSync(path.join(ws, '.git/hooks'), { recursive: true });
    writeFileSync(path.join(ws, '.git/config'), '[core]\n\trepositoryformatversion = 0\n');
    return ws;
  };

  test('in bubblewrap its .git is read-only to code: a hook cannot be written, the rest of the folder can', { skip: BWRAP.kind === 'bwrap' ? false : 'no bubblewrap here' }, async () => {
    const ws = repo();
    await inSandbox(ws, BWRAP, null, async (call) => {
      assert.deepEqual(await call('hook', { path: '.git/hooks/pre-commit' }), { wrote: false, error: 'Read-only file system' });
      assert.deepEqual(await call('hook', { path: 'src/notes.txt' }), { wrote: true });
      assert.deepEqual(await call('hook', { path: '.git/config' }), { wrote: false, error: 'Read-only file system' });
    });
    assert.equal(existsSync(path.join(ws, '.git/hooks/pre-commit')), false);
    assert.match(readFileSync(path.join(ws, '.git/config'), 'utf8'), /repositoryformatversion/);
  });

  test('in bubblewrap code cannot swap its .git for a link or another folder (the bind by path relies on it): the bound entry is a mount point', { skip: BWRAP.kind === 'bwrap' ? false : 'no bubblewrap here' }, async () => {
    const ws = repo();
    const before = statSync(path.join(ws, '.git')).ino;
    await inSandbox(ws, BWRAP, null, async (call) => {
      const tried = (await call('swap_git')) as Record<string, string>;
      for (const [how, result] of Object.entries(tried)) assert.notEqual(result, 'done', `${how}: ${JSON.stringify(tried)}`);
      assert.equal(tried.rename, 'Device or resource busy');
    });
    const st = lstatSync(path.join(ws, '.git'));
    assert.ok(st.isDirectory() && st.ino === before, 'the .git is the one that was there');
  });

  for (const language of ['python', 'node'] as const) {
    test(`in bubblewrap a .git swapped for a link to a host folder between the check and the bind (by code of a sandbox where it is no mount point: another run on the same folder) is refused, never bound: ${language}`, { skip: BWRAP.kind === 'bwrap' ? false : 'no bubblewrap here' }, async () => {
      const ws = repo();
      // a host folder the sandbox does not show: the test's root, the workspace's parent (in the sandbox, a folder on the way to it)
      writeFileSync(path.join(root, 'secret.txt'), 'host secret');
      const check = WorkspaceGuard.prototype.readOnlyEntries;
      WorkspaceGuard.prototype.readOnlyEntries = function (this: WorkspaceGuard) {
        const entries = check.call(this);
        // the worst moment: checked, not yet bound; relative, as bubblewrap resolves the link in the new root too
        renameSync(path.join(ws, '.git'), path.join(ws, '.git-away'));
        symlinkSync('..', path.join(ws, '.git'));
        return entries;
      };
      const sandbox: CodeSandbox = createCodeSandbox({ isolation: BWRAP, workDir: ws, workspaceQuota: null, bundleDir: CODE });
      try {
        const modulePath = language === 'python' ? PY : JS;
        const got = await sandbox.call({ language, modulePath, exportName: 'leak', input: { path: path.join(root, 'secret.txt') }, timeoutMs: 20_000 }).catch((e: Error) => e);
        assert.ok(got instanceof Error, `the step ran: ${JSON.stringify(got)}`);
        assert.match(got.message, /\.git was replaced between the host's check and the sandbox's read-only bind/);
      } finally {
        WorkspaceGuard.prototype.readOnlyEntries = check;
        await sandbox.close();
      }
    });
  }

  test('without the sandbox the same step writes the hook (STAGECRAFT_SANDBOX=off gives code the server’s rights)', async () => {
    const ws = repo();
    await inSandbox(ws, NONE, null, async (call) => {
      assert.deepEqual(await call('hook', { path: '.git/hooks/pre-commit' }), { wrote: true });
    });
    assert.ok(existsSync(path.join(ws, '.git/hooks/pre-commit')));
  });
});

/**
 * A host (a real node process) whose code step plants `.git` entries and hangs: the host is SIGKILLed
 * mid-step, as a crash does, so no check after the step ever runs. Its workers die with it.
 */
async function crashMidStep(ws: string, isolation: Isolation, quota: WorkspaceQuota | null, gitBaselineFile: string, paths: string[]): Promise<void> {
  const sandboxModule = path.join(path.dirname(fileURLToPath(import.meta.url)), 'sandbox.ts');
  const isolationModule = path.join(path.dirname(sandboxModule), 'isolation.ts');
  // bubblewrap's isolation holds a seccomp filter (bytes): the host makes its own, as a server does
  const isolationCode = isolation.kind === 'none' ? JSON.stringify(isolation) : `(await import(${JSON.stringify(isolationModule)})).isolationFor('auto')`;
  const script = `
    const { createCodeSandbox } = await import(${JSON.stringify(sandboxModule)});
    const options = ${JSON.stringify({ workDir: ws, workspaceQuota: quota, bundleDir: CODE, gitBaselineFile })};
    const sandbox = createCodeSandbox({ ...options, isolation: ${isolationCode} });
    await sandbox.call(${JSON.stringify({ language: 'python', modulePath: PY, exportName: 'plant_and_hang', input: { paths }, timeoutMs: 600_000 })});`;
  const host = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise((r) => host.once('exit', r));
  try {
    const until = Date.now() + 20_000;
    while (!existsSync(path.join(ws, 'planted'))) {
      assert.ok(Date.now() < until, 'the step did not plant its .git in time');
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    host.kill('SIGKILL');
    await exited;
  }
}

// with the record the crashed execution wrote, and without one (a workspace Stagecraft made before records were kept)
for (const [mode, isolation] of MODES) {
  for (const isRecorded of [true, false]) {
    const how = isRecorded ? '' : ' (no baseline record: from before records were kept, in a workspace Stagecraft made, where only code makes a .git)';
    test(`${mode}: a .git a step made before the server died is not the workspace’s own when the run resumes${how}: renamed, and the first step fails`, async () => {
      const ws = workspace();
      const baseline = path.join(root, 'baselines', `${path.basename(ws)}.json`);
      await crashMidStep(ws, isolation, QUOTA, baseline, ['.git', 'vendor/lib/.git']);
      assert.ok(existsSync(path.join(ws, '.git/hooks/pre-commit')), 'the crashed step planted its .git');
      if (!isRecorded) rmSync(baseline);
      await inSandbox(
        ws,
        isolation,
        QUOTA,
        async (call) => {
          const err = await rejection(call('ok'));
          assert.equal(err.code, 'workspace_git_refused', err.message);
          assert.match(err.message, /earlier execution of this run.*made \.git, vendor\/lib\/\.git|earlier execution of this run.*made vendor\/lib\/\.git, \.git/);
          if (!isRecorded) assert.match(err.message, /before the workspace’s own \.git was recorded/);
          assert.deepEqual(await call('ok'), { ok: true });
        },
        baseline,
        true,
      );
      assert.equal(existsSync(path.join(ws, '.git')), false, 'the top .git is still there');
      assert.equal(existsSync(path.join(ws, 'vendor/lib/.git')), false, 'the deeper .git is still there');
      assert.ok(readdirSync(ws).some((f) => f.startsWith('.git.refused-')), 'renamed, not deleted');
      if (!isRecorded) assert.deepEqual(JSON.parse(readFileSync(baseline, 'utf8')), { top: null, known: [] }, 'recorded now');
    });
  }
}

test('a folder the user named with no baseline record keeps the .git at its top (most likely the user’s repository)', async () => {
  const mine = workspace();
  mkdirSync(path.join(mine, '.git/hooks'), { recursive: true });
  writeFileSync(path.join(mine, '.git/config'), '[core]\n');
  const baseline = path.join(root, 'baselines', `${path.basename(mine)}.json`);
  await inSandbox(mine, NONE, null, async (call) => assert.deepEqual(await call('ok'), { ok: true }), baseline, false);
  assert.ok(existsSync(path.join(mine, '.git/config')));
});

test('a folder named with --workspace: its own .git stays its own across a crash and resume; one code made at its top goes', async () => {
  const mine = workspace();
  mkdirSync(path.join(mine, '.git/hooks'), { recursive: true });
  writeFileSync(path.join(mine, '.git/config'), '[core]\n');
  const minesBaseline = path.join(root, 'baselines', `${path.basename(mine)}.json`);
  await crashMidStep(mine, NONE, null, minesBaseline, ['src/.git']);
  await inSandbox(mine, NONE, null, async (call) => assert.deepEqual(await call('ok'), { ok: true }), minesBaseline);
  assert.ok(existsSync(path.join(mine, '.git/config')), 'the folder’s own .git was taken for one code made');

  const theirs = workspace();
  const theirsBaseline = path.join(root, 'baselines', `${path.basename(theirs)}.json`);
  await crashMidStep(theirs, NONE, null, theirsBaseline, ['.git']);
  await inSandbox(theirs, NONE, null, async (call) => assert.equal((await rejection(call('ok'))).code, 'workspace_git_refused'), theirsBaseline);
  assert.equal(existsSync(path.join(theirs, '.git')), false);
});

test('in bubblewrap a .git code made is not the workspace’s own for a worker started while it is there: not bound read-only as the user’s repository would be', { skip: BWRAP.kind === 'bwrap' ? false : 'no bubblewrap here' }, async () => {
  const ws = workspace();
  const sandbox = createCodeSandbox({ isolation: BWRAP, workDir: ws, workspaceQuota: QUOTA, bundleDir: CODE, maxWorkersPerLanguage: 2 });
  try {
    const call = (f: string, input: Json) => sandbox.call({ language: 'python', modulePath: PY, exportName: f, input, timeoutMs: 20_000 });
    const first = call('git_then_wait', { seconds: 3 });
    first.catch(() => {});
    const until = Date.now() + 10_000;
    while (!existsSync(path.join(ws, '.git/hooks'))) {
      assert.ok(Date.now() < until, 'the first step made no .git');
      await new Promise((r) => setTimeout(r, 20));
    }
    // the second call starts a second worker now: its sandbox is built while the code-made .git is there
    const second = await rejection(call('hook', { path: '.git/hooks/pre-commit' }));
    assert.equal(second.code, 'workspace_git_refused');
    assert.deepEqual(await first, { ok: true }, 'the second step’s check renamed the .git first');
    const renamed = readdirSync(ws).find((f) => f.startsWith('.git.refused-'));
    assert.ok(renamed);
    // the second worker wrote in it: not bound read-only, as only the workspace's own .git is
    assert.match(readFileSync(path.join(ws, renamed!, 'hooks/pre-commit'), 'utf8'), /owned/);
  } finally {
    await sandbox.close();
  }
});

test('a step sleeping in a workspace filled to just under its quota: the poll walks it at a small share of a core, not every 250 ms', async () => {
  const quota: WorkspaceQuota = { maxBytes: 1024 ** 3, maxFiles: 30_000 };
  await inSandbox(workspace(), BWRAP.kind === 'bwrap' ? BWRAP : NONE, quota, async (call) => {
    await call('fill_then_sleep', { n: 29_990, seconds: 0 });
    const cpu = process.cpuUsage();
    const t = performance.now();
    assert.deepEqual(await call('fill_then_sleep', { n: 0, seconds: 4 }), { ok: true });
    const used = process.cpuUsage(cpu);
    const share = (used.user + used.system) / 1000 / (performance.now() - t);
    // paced (POLL_COST_RATIO): 5–12% measured, the top under load (each walk's lstats run on cold caches);
    // unpaced, a walk every 250 ms: 50%. A clean-clone CI at load ~10 saw 12.0% against a bound of 12%
    assert.ok(share < 0.2, `the server spent ${Math.round(share * 100)}% of a core measuring the workspace`);
  });
});
