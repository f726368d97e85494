// The code sandbox against real python3 and node child processes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CodeStepError, PayloadTooLargeError, StepTimeoutError } from '../kernel/errors';
import type { Json, JsonObject } from '../kernel/json';
import type { CodeCall, CodeSandbox } from '../kernel/ports';
import { createCodeSandbox } from './index';
import { isolationFor, type Isolation } from './isolation';
import { WorkerSlots } from './worker-slots';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const PY = path.join(FIXTURES, 'steps.py');
const JS = path.join(FIXTURES, 'steps.mjs');
const TS = path.join(FIXTURES, 'typed.ts');
const TIMEOUT_MS = 10_000;
const EXPECTED_ENV_KEYS = ['HOME', 'LANG', 'PATH', 'PYTHONDONTWRITEBYTECODE', 'PYTHONUNBUFFERED'];
const NONE: Isolation = { kind: 'none', reason: 'the test asks for plain child processes' };
const BWRAP = isolationFor('auto');
/** every behaviour below holds with and without the bubblewrap sandbox (when this machine has it) */
const MODES: [string, Isolation][] = [['unisolated', NONE], ...(BWRAP.kind === 'bwrap' ? [['in bubblewrap', BWRAP] as [string, Isolation]] : [])];

function callOf(modulePath: string, exportName: string, input: Json = {}, timeoutMs = TIMEOUT_MS): CodeCall {
  return { language: modulePath.endsWith('.py') ? 'python' : 'node', modulePath, exportName, input, timeoutMs };
}

/** the worker process a call ran in: its pid (as it sees it) and a token only that process has */
async function workerOf(sandbox: CodeSandbox, modulePath: string): Promise<{ pid: number; token: string }> {
  return (await sandbox.call(callOf(modulePath, 'pid'))) as { pid: number; token: string };
}

/** Whether any process of the group led by `pid` still exists (zombies excluded: they are reaped by us). */
function isGroupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch (e) {
    assert.equal((e as NodeJS.ErrnoException).code, 'ESRCH');
    return false;
  }
}

async function waitUntilGone(pid: number, withinMs = 2_000): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (isGroupAlive(pid)) {
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

/** whether a process is named `name` (its /proc comm: a fixture sets it, to be found from the host whatever its pid inside the sandbox) */
function isNamed(name: string): boolean {
  return readdirSync('/proc').some((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === name;
    } catch {
      return false; // gone while listed
    }
  });
}

/** Waits (up to `withinMs`) until no process is named `name`; whether none is. */
async function waitUntilNoneNamed(name: string, withinMs: number): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (isNamed(name)) {
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  assert.fail('expected the call to fail');
}

for (const [mode, isolation] of MODES) describe(`code sandbox, ${mode}`, () => {
  const unisolated = isolation.kind === 'none';
  let sandbox: CodeSandbox;
  before(() => {
    sandbox = createCodeSandbox({ isolation });
  });
  after(() => sandbox.close());

  test('calls a python function and a node function with JSON in and out', async () => {
    assert.deepEqual(await sandbox.call(callOf(PY, 'add_one', { n: 1 })), { n: 2 });
    assert.deepEqual(await sandbox.call(callOf(JS, 'addOne', { n: 41 })), { n: 42 });
  });

  test('awaits async node functions and runs TypeScript modules', async () => {
    assert.deepEqual(await sandbox.call(callOf(JS, 'slowDouble', { n: 21 })), { n: 42 });
    assert.deepEqual(await sandbox.call(callOf(TS, 'countWords', { words: ['a', 'b', 'c'] })), { wordCount: 3 });
  });

  test('finds functions on an `export default` object, and maps `undefined` to null', async () => {
    assert.deepEqual(await sandbox.call(callOf(JS, 'viaDefault', [1])), { fromDefault: [1] });
    assert.equal(await sandbox.call(callOf(JS, 'nothing')), null);
  });

  test('values survive the pipe unchanged (unicode, newlines, protocol look-alikes)', async () => {
    const tricky: JsonObject = { s: 'line1\nline2\u2028 é 😀 {"id": 1, "ok": true}\n', n: -1.5e-7, a: [null, true, {}] };
    assert.deepEqual(await sandbox.call(callOf(PY, 'echo', tricky)), tricky);
    assert.deepEqual(await sandbox.call(callOf(JS, 'echo', tricky)), tricky);
  });

  test('warm starts a worker before any call, and the first call runs on it', async () => {
    const slots = new WorkerSlots(4);
    const own = createCodeSandbox({ isolation, slots });
    try {
      own.warm!({ language: 'node', modulePath: JS });
      own.warm!({ language: 'node', modulePath: JS }); // once is enough: a second hint starts nothing
      const until = Date.now() + 20_000;
      while (slots.count === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
      assert.equal(slots.count, 1, 'a worker is up before the first call');
      const first = await workerOf(own, JS);
      assert.equal(slots.count, 1, 'the call ran on the warmed worker, not a second one');
      assert.equal((await workerOf(own, JS)).token, first.token);
      own.warm!({ language: 'node', modulePath: 'relative.mjs' }); // a target no call could run: ignored
      assert.equal(slots.count, 1);
    } finally {
      await own.close();
    }
  });

  test('a call that comes while its idle worker is being stopped (the cap gave its slot to another language) runs on a fresh worker, not the dying one', async () => {
    const slots = new WorkerSlots(1);
    const own = createCodeSandbox({ isolation, slots });
    try {
      const before = (await workerOf(own, PY)).token; // python's worker, idle now: the one the cap may stop
      // node's call takes the only slot: the idle python worker is sent its kill, and its exit is not seen
      // yet when python's next call comes, in the same turn; sent there, that call died with it ("killed by SIGKILL")
      const [node, python] = await Promise.all([own.call(callOf(JS, 'echo', 'n')), workerOf(own, PY)]);
      assert.equal(node, 'n');
      assert.notEqual(python.token, before, 'the call ran on a fresh worker');
    } finally {
      await own.close();
    }
  });

  test('a worker imports a module once and is reused across calls', async () => {
    for (const [file, fn] of [[PY, 'count'], [JS, 'count']] as const) {
      const first = (await sandbox.call(callOf(file, fn))) as { calls: number };
      const second = (await sandbox.call(callOf(file, fn))) as { calls: number };
      assert.equal(second.calls, first.calls + 1, `${file}: module-level state persists`);
    }
    assert.equal((await workerOf(sandbox, PY)).token, (await workerOf(sandbox, PY)).token);
  });

  test('a prepared call reaches no worker until it is started, then runs once; a bad one is refused at its start as a call is', async () => {
    const prepared = sandbox.prepare!(callOf(JS, 'count'));
    const before = ((await sandbox.call(callOf(JS, 'count'))) as { calls: number }).calls;
    const between = ((await sandbox.call(callOf(JS, 'count'))) as { calls: number }).calls;
    assert.equal(between, before + 1, 'the prepared call did not run');
    assert.equal(((await prepared.start()) as { calls: number }).calls, between + 1);
    assert.equal(((await sandbox.call(callOf(JS, 'count'))) as { calls: number }).calls, between + 2, 'it ran once');
    const bad = callOf('relative.mjs', 'count');
    const refused = sandbox.prepare!(bad); // never throws: what is wrong is its start's rejection
    assert.equal((await rejection(refused.start())).message, (await rejection(sandbox.call(bad))).message);
  });

  test('a warm node worker runs each call exactly once, sync and async functions alike, in order', async () => {
    const seen: number[] = [];
    for (const fn of ['count', 'countLater', 'count', 'count', 'countLater', 'countLater', 'count']) {
      seen.push(((await sandbox.call(callOf(JS, fn))) as { calls: number }).calls);
    }
    assert.deepEqual(seen.map((n) => n - seen[0]), [0, 1, 2, 3, 4, 5, 6], 'each call counted once, none twice or lost');
    // concurrent calls on the one worker queue up in the host and are answered in turn
    const parallel = await Promise.all(['countLater', 'count', 'countLater'].map((fn) => sandbox.call(callOf(JS, fn))));
    assert.deepEqual(parallel.map((r) => (r as { calls: number }).calls - seen[6]), [1, 2, 3]);
  });

  test('user print / console.log on stdout cannot break the protocol', async () => {
    assert.deepEqual(await sandbox.call(callOf(PY, 'chatty')), { ok: true });
    assert.deepEqual(await sandbox.call(callOf(JS, 'chatty')), { ok: true });
    const err = await rejection(sandbox.call(callOf(PY, 'loud_boom')));
    assert.ok(err instanceof CodeStepError);
    assert.match(String(err.details.stdoutTail), /about to fail/, 'the call\'s stdout is attached to its error');
  });

  test('a python exception is a CodeStepError with type, message and a traceback into the user file', async () => {
    const err = await rejection(sandbox.call(callOf(PY, 'boom', { n: 7 })));
    assert.ok(err instanceof CodeStepError);
    assert.equal(err.code, 'code_failed');
    assert.match(err.message, /ValueError: bad value: 7/);
    assert.match(err.message, /steps\.py", line \d+, in _inner/);
    assert.equal(err.details.errorType, 'ValueError');
    assert.match(String(err.details.where), /fixtures\/steps\.py:\d+$/);
    assert.doesNotMatch(String(err.details.traceback), /python_worker/, 'the worker\'s own frames are not shown');
  });

  test('a node exception is a CodeStepError with the stack into the user file (TypeScript lines too)', async () => {
    const err = await rejection(sandbox.call(callOf(JS, 'boom', { n: 7 })));
    assert.ok(err instanceof CodeStepError);
    assert.match(err.message, /TypeError: bad value: 7/);
    assert.match(String(err.details.where), /fixtures\/steps\.mjs:\d+:\d+$/);
    assert.doesNotMatch(String(err.details.traceback), /node_worker/);
    const tsErr = await rejection(sandbox.call(callOf(TS, 'fail', { words: ['x'] })));
    assert.ok(tsErr instanceof CodeStepError);
    assert.match(tsErr.message, /cannot handle 1 words/);
    assert.match(String(tsErr.details.where), /fixtures\/typed\.ts:10:\d+$/, 'source-mapped to the .ts line');
  });

  test('a return value that is not JSON is a CodeStepError saying so and where', async () => {
    const cases: [string, string, RegExp][] = [
      [PY, 'not_json_nan', /nan.*at \$\.x/i],
      [PY, 'not_json_set', /type set.*at \$\.tags/],
      [PY, 'not_json_key', /keys must be strings/],
      [JS, 'notJsonNaN', /NaN.*at \$\.x/],
      [JS, 'notJsonFunction', /a function.*at \$\.f/],
      [JS, 'notJsonMap', /a Map.*at \$\.m/],
    ];
    for (const [file, fn, pattern] of cases) {
      const err = await rejection(sandbox.call(callOf(file, fn)));
      assert.ok(err instanceof CodeStepError, fn);
      assert.match(err.message, /not JSON-serialisable/, fn);
      assert.match(err.message, pattern, fn);
    }
  });

  test('a missing function names the file and lists the functions that exist; a missing file is named', async () => {
    const py = await rejection(sandbox.call(callOf(PY, 'to_html')));
    assert.ok(py instanceof CodeStepError);
    assert.match(py.message, /steps\.py has no function to_html/);
    assert.match(py.message, /add_one, boom, chatty, count/);
    assert.doesNotMatch(py.message, /_inner|_helper/, 'private helpers are not offered');
    const js = await rejection(sandbox.call(callOf(JS, 'toHtml')));
    assert.match(js.message, /steps\.mjs has no function toHtml.*addOne, boom/);
    assert.match(js.message, /viaDefault/, 'functions of the default export are listed too');
    const missing = await rejection(sandbox.call(callOf(path.join(FIXTURES, 'nope.py'), 'f')));
    assert.ok(missing instanceof CodeStepError);
    assert.match(missing.message, /nope\.py does not exist \(looked for function f\)/);
    const wrongExt = await rejection(sandbox.call({ ...callOf(PY, 'echo'), language: 'node' }));
    assert.match(wrongExt.message, /node step needs a \.js/);
  });

  for (const [label, file] of [['python', PY], ['node', JS]] as const) {
    test(`a ${label} step that loops forever is killed at its timeout, and the next call works`, async () => {
      const before = await workerOf(sandbox, file);
      const timeoutMs = 400;
      const started = performance.now();
      const err = await rejection(sandbox.call(callOf(file, 'forever', {}, timeoutMs)));
      const elapsed = performance.now() - started;
      assert.ok(err instanceof StepTimeoutError, `got ${err.name}: ${err.message}`);
      assert.equal(err.code, 'step_timeout');
      assert.match(err.message, /function forever in .*steps\.(py|mjs) did not finish within 400 ms/);
      assert.match(err.message, /timeout_ms/);
      assert.ok(elapsed >= timeoutMs - 5 && elapsed < timeoutMs + 1000, `elapsed ${elapsed.toFixed(0)} ms`);
      if (unisolated) assert.equal(isGroupAlive(before.pid), false, 'the worker process group is gone when the error arrives');
      const next = await workerOf(sandbox, file);
      assert.notEqual(next.token, before.token, 'a fresh worker took over');
    });
  }

  test('a warm worker times each call from its own start: the timer of the last call, fired while idle, neither fails nor spares the next', async () => {
    // idle half a timeout, then nap two thirds of one: timed from the last call's start, the nap would be
    // killed; its third of slack (400 ms) is what a loaded machine may add to a call (100 ms was not enough)
    const timeoutMs = 1200;
    const first = (await sandbox.call(callOf(PY, 'nap', { s: 0 }, timeoutMs))) as { token: string };
    await new Promise((r) => setTimeout(r, timeoutMs / 2)); // idle half a timeout: the next call must still get all of its own
    const second = (await sandbox.call(callOf(PY, 'nap', { s: 0.8 }, timeoutMs))) as { token: string };
    assert.equal(second.token, first.token, 'an 800 ms nap within a 1200 ms timeout ran on the warm worker');
    await new Promise((r) => setTimeout(r, timeoutMs + 100)); // idle past the timeout: its timer fires with no call
    const third = (await sandbox.call(callOf(PY, 'nap', { s: 0.8 }, timeoutMs))) as { token: string };
    assert.equal(third.token, first.token, 'the idle firing touched neither the worker nor the next call');
    const started = performance.now();
    const err = await rejection(sandbox.call(callOf(PY, 'forever', {}, timeoutMs)));
    const elapsed = performance.now() - started;
    assert.ok(err instanceof StepTimeoutError, `got ${err.name}: ${err.message}`);
    assert.ok(elapsed >= timeoutMs - 5 && elapsed < timeoutMs + 1000, `timed out after ${elapsed.toFixed(0)} ms`);
  });

  test('a python step sleeping 60 s is cut short by its abort signal: the call rejects with the reason at once, its worker killed; a call already aborted runs nothing', async () => {
    const before = await workerOf(sandbox, PY);
    const ac = new AbortController();
    const started = performance.now();
    const running = rejection(sandbox.call(callOf(PY, 'nap', { s: 60 }, 90_000), { signal: ac.signal }));
    setTimeout(() => ac.abort(new Error('the run was asked to abort')), 500);
    const err = await running;
    const elapsed = performance.now() - started;
    assert.equal(err.message, 'the run was asked to abort');
    assert.ok(elapsed < 5_000, `cut short after ${elapsed.toFixed(0)} ms, not 60 s`);
    if (unisolated) assert.ok(await waitUntilGone(before.pid), 'the worker process group is gone');
    const next = await workerOf(sandbox, PY);
    assert.notEqual(next.token, before.token, 'a fresh worker took over');
    // already aborted: nothing runs
    const gone = await rejection(sandbox.call(callOf(PY, 'count'), { signal: ac.signal }));
    assert.equal(gone.message, 'the run was asked to abort');
  });

  test('workers see a minimal environment and none of the server\'s variables', async () => {
    process.env.STAGECRAFT_TEST_SECRET = 'hunter2';
    try {
      // fresh workers, spawned after the secret was set
      const fresh = createCodeSandbox({ isolation });
      try {
        for (const [file, fn] of [[PY, 'env'], [JS, 'env'], [TS, 'env']] as const) {
          const { env, cwd } = (await fresh.call(callOf(file, fn))) as { env: Record<string, string>; cwd: string };
          // PWD is the worker's own folder, set by the shell that limits node's memory, or by bwrap's --chdir
          const keys = Object.keys(env).filter((k) => k !== 'PWD');
          assert.deepEqual(keys.sort(), EXPECTED_ENV_KEYS, `${file}: ${Object.keys(env).join(', ')}`);
          assert.equal(env.STAGECRAFT_TEST_SECRET, undefined);
          assert.notEqual(env.HOME, process.env.HOME);
          assert.equal(env.LANG, 'C.UTF-8');
          assert.ok(env.PATH.split(':').includes('/usr/bin'));
          assert.equal(cwd, FIXTURES, 'cwd is the module\'s directory');
        }
      } finally {
        await fresh.close();
      }
    } finally {
      delete process.env.STAGECRAFT_TEST_SECRET;
    }
  });

  test('a reply too large to buffer is refused with PayloadTooLargeError, and the next call works', async () => {
    const err = await rejection(sandbox.call(callOf(PY, 'huge', {}, 60_000)));
    assert.ok(err instanceof PayloadTooLargeError, `got ${err.name}: ${err.message}`);
    assert.match(err.message, /more than 16 MB/);
    assert.deepEqual(await sandbox.call(callOf(PY, 'echo', 'ok')), 'ok');
  });

  test('a thread a step left writing to the reply channel between calls (no call to fail) does not fill the server: the worker goes, the next call works', async () => {
    const name = `fl-${process.pid % 100000}-r`;
    const flooder = (await sandbox.call(callOf(PY, 'flood_later', { name }))) as number;
    assert.ok(isNamed(name), `no process is named ${name}: the fixture could not name its worker`);
    const rss = process.memoryUsage().rss;
    await new Promise((r) => setTimeout(r, 2_500));
    const grew = process.memoryUsage().rss - rss;
    assert.ok(grew < 200 * 1024 * 1024, `the server grew ${Math.round(grew / 2 ** 20)} MB while the worker wrote`);
    // the worker goes once its flood passes the reply limit: under load that may take longer than the
    // window above (the pipe passes 64 KB a wake-up), and a call sent before then meets the flood's bytes
    assert.ok(await waitUntilNoneNamed(name, 60_000), `the flooding worker (${name}) was not stopped`);
    assert.deepEqual(await sandbox.call(callOf(PY, 'echo', 'ok')), 'ok');
    if (unisolated) assert.equal(await waitUntilGone(flooder), true, 'the flooding worker was not killed');
  });

  test('a step flooding stdout during its own call: the server reads it at a small share of a core, keeps its head and tail (how much was left out between), and the step is not failed for it', async () => {
    const cpu = process.cpuUsage();
    const t = performance.now();
    const wrote = (await sandbox.call(callOf(PY, 'flood_now', { seconds: 3 }))) as number;
    const used = process.cpuUsage(cpu);
    const share = (used.user + used.system) / 1000 / (performance.now() - t);
    assert.ok(wrote > 32 * 2 ** 20, `the step wrote only ${wrote} bytes`);
    assert.ok(share < 0.3, `the server spent ${Math.round(share * 100)}% of a core reading the step's output`);
    // the next call at once: what the flood left unread in the pipe is the flood's, not this call's (call-bounds.ts)
    const err = await rejection(sandbox.call(callOf(PY, 'flood_now', { seconds: 0.3, fail: true })));
    assert.ok(err instanceof CodeStepError);
    const out = String(err.details.stdoutTail);
    assert.match(out, /^FIRST LINE\n/);
    assert.match(out, /\n\[… \d+ bytes of output left out …\]\n/);
    assert.match(out, /\nLAST LINE\n$/);
    assert.ok(out.length < 9_000, `${out.length} characters of output kept`);
    assert.deepEqual(await sandbox.call(callOf(PY, 'echo', 'ok')), 'ok');
  });

  test('what a thread a step left writes between calls, read then, is not the next call’s output', async () => {
    for (let i = 0; i < 3; i++) {
      await sandbox.call(callOf(PY, 'late_print', { delay: 0.1, text: 'LATE LINE\n' }));
      // the server's loop reads it between the calls (a loop too busy to: it is the next call's, call-bounds.ts)
      await new Promise((r) => setTimeout(r, 400));
      const err = await rejection(sandbox.call(callOf(PY, 'flood_now', { seconds: 0, fail: true })));
      assert.ok(err instanceof CodeStepError);
      assert.equal(String(err.details.stdoutTail), 'FIRST LINE\n\nLAST LINE\n', `round ${i + 1}`);
    }
  });

  test('a thread a step left printing without end between calls is stopped: the worker goes (not the server’s main thread, reading it), the next call works', async () => {
    const name = `fl-${process.pid % 100000}-o`;
    const flooder = (await sandbox.call(callOf(PY, 'flood_later', { fd: 1, name }))) as number;
    assert.ok(isNamed(name), `no process is named ${name}: the fixture could not name its worker`);
    const cpu = process.cpuUsage();
    const t = performance.now();
    await new Promise((r) => setTimeout(r, 2_000));
    const used = process.cpuUsage(cpu);
    const share = (used.user + used.system) / 1000 / (performance.now() - t);
    assert.ok(share < 0.35, `the server spent ${Math.round(share * 100)}% of a core reading the worker's output`);
    assert.ok(await waitUntilNoneNamed(name, 60_000), `the printing worker (${name}) was not stopped`);
    if (unisolated) assert.equal(await waitUntilGone(flooder), true, 'the printing worker was not killed');
    assert.deepEqual(await sandbox.call(callOf(PY, 'echo', 'ok')), 'ok');
  });

  test('a worker that exits mid-call is a CodeStepError with its exit code; the next call respawns', async () => {
    for (const file of [PY, JS]) {
      const err = await rejection(sandbox.call(callOf(file, 'leave')));
      assert.ok(err instanceof CodeStepError);
      assert.match(err.message, /worker exited with code 3 while running/);
      assert.equal(err.details.exitCode, 3);
      assert.ok((await workerOf(sandbox, file)).pid > 0);
    }
  });
});

for (const [mode, isolation] of MODES) describe(`code sandbox limits and lifetime, ${mode}`, () => {
  const unisolated = isolation.kind === 'none';
  test('allocating far past the memory limit is a CodeStepError naming the limit', async () => {
    const sandbox = createCodeSandbox({ memoryLimitMb: 128, isolation });
    try {
      for (const file of [PY, JS]) {
        const err = await rejection(sandbox.call(callOf(file, 'hog', {}, 30_000)));
        assert.ok(err instanceof CodeStepError, `${file}: got ${err.name}: ${err.message}`);
        assert.match(err.message, /memory limit of 128 MB/);
        assert.deepEqual(await sandbox.call(callOf(file, 'echo', [1])), [1], 'a fresh worker runs the next call');
      }
    } finally {
      await sandbox.close();
    }
  });

  test('close() kills every worker, and later calls are refused', async () => {
    const sandbox = createCodeSandbox({ isolation });
    const pids = [(await workerOf(sandbox, PY)).pid, (await workerOf(sandbox, JS)).pid];
    await sandbox.call(callOf(TS, 'countWords', { words: [] }));
    const pending = rejection(sandbox.call(callOf(PY, 'forever', {}, 60_000)));
    await sandbox.close();
    const err = await pending;
    assert.match(err.message, /sandbox is closed/);
    if (unisolated) for (const pid of pids) assert.equal(isGroupAlive(pid), false, `worker ${pid} is gone`);
    const late = await rejection(sandbox.call(callOf(PY, 'echo')));
    assert.ok(late instanceof CodeStepError);
    assert.match(late.message, /sandbox is closed/);
  });

  // in a sandbox the host cannot see the workers' own pids: escape.test.ts checks that nothing outlives it
  test('an idle sandbox does not keep the server alive (a call in flight does), and its workers die with the server', { skip: !unisolated }, async () => {
    const started = performance.now();
    const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(FIXTURES, 'forgetful-parent.ts')], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, STAGECRAFT_SANDBOX: 'off' },
    });
    assert.equal(result.status, 0, result.stderr);
    // its calls' timeouts are 30 s: a timer of theirs left ref'd would have held it that long
    assert.ok(performance.now() - started < 20_000, `it exited after ${(performance.now() - started).toFixed(0)} ms`);
    const pids = JSON.parse(result.stdout.trim()) as number[];
    assert.equal(pids.length, 2);
    for (const pid of pids) assert.ok(await waitUntilGone(pid), `worker ${pid} outlived its server`);
  });

  test('with maxWorkersPerLanguage > 1, calls run in parallel on separate workers', async () => {
    const sandbox = createCodeSandbox({ maxWorkersPerLanguage: 2, isolation });
    try {
      await Promise.all([sandbox.call(callOf(PY, 'echo')), sandbox.call(callOf(PY, 'echo'))]); // warm both
      const started = performance.now();
      const naps = (await Promise.all([
        sandbox.call(callOf(PY, 'nap', { s: 0.4 })),
        sandbox.call(callOf(PY, 'nap', { s: 0.4 })),
      ])) as { token: string }[];
      const elapsed = performance.now() - started;
      assert.notEqual(naps[0].token, naps[1].token);
      assert.ok(elapsed < 750, `two 400 ms naps took ${elapsed.toFixed(0)} ms`);
    } finally {
      await sandbox.close();
    }
  });
});

test('a fused chain gives each step its own copy of the value, merged as the kernel merges', async () => {
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-chain-'));
  writeFileSync(path.join(dir, 'c.mjs'), 'export function a(v){ v.tags.push("mutated"); return { a: v.tags.length }; }\nexport function b(v){ return v.tags.length; }\nexport function c(){ return [1]; }\n');
  writeFileSync(path.join(dir, 'c.py'), 'def a(v):\n    v["tags"].append("mutated")\n    return {"a": len(v["tags"])}\n\ndef b(v):\n    return len(v["tags"])\n\ndef c(v):\n    return [1]\n');
  const sandbox = createCodeSandbox();
  try {
    for (const [language, file] of [['node', 'c.mjs'], ['python', 'c.py']] as const) {
      const out = await sandbox.call({
        language,
        modulePath: path.join(dir, file),
        exportName: 'a',
        input: { tags: ['x'] },
        timeoutMs: 5000,
        chain: [
          { exportName: 'a', into: null },
          { exportName: 'b', into: 'n' },
          { exportName: 'c', into: null },
          { exportName: 'b', into: 'never' },
        ],
      });
      // b saw the value without a's mutation; c's array cannot be merged, so the chain stops before it
      assert.deepEqual(out, { outputs: [{ a: 2 }, 1] }, language);
    }
  } finally {
    await sandbox.close();
  }
});

test('a fused chain calls sync and async functions alike, sends each result as it was returned, and stops at a throw', async () => {
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-chain-'));
  // `kept` is the object `s` returned last time: the next call changes it after it was returned
  writeFileSync(
    path.join(dir, 'c.mjs'),
    'let kept = null;\nexport function s(v){ if (kept) kept.n = -1; kept = { n: (v.n ?? 0) + 1 }; return kept; }\n' +
      'export async function a(v){ await new Promise((r) => setTimeout(r, 1)); return { n: v.n + 10, skip: undefined }; }\n' +
      'export function t(){ throw new Error("no"); }\n',
  );
  const sandbox = createCodeSandbox();
  try {
    const out = await sandbox.call({
      language: 'node',
      modulePath: path.join(dir, 'c.mjs'),
      exportName: 's',
      input: {},
      timeoutMs: 5000,
      chain: [
        { exportName: 's', into: null },
        { exportName: 'a', into: null },
        { exportName: 's', into: null },
        { exportName: 't', into: null },
        { exportName: 's', into: null },
      ],
    });
    // the first result is sent as `s` returned it, not as its second call changed it; `undefined` members are dropped
    assert.deepEqual(out, { outputs: [{ n: 1 }, { n: 11 }, { n: 12 }] });
  } finally {
    await sandbox.close();
  }
});

test('temp homes left by a SIGKILLed server are swept; a live one is left alone; an unowned one once a day old', async () => {
  const { mkdtempSync, mkdirSync, existsSync, utimesSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { sweepAbandonedHomes } = await import('./sandbox');
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-sweep-'));
  // a pid that cannot be running (above the kernel's pid_max)
  const dead = path.join(dir, 'stagecraft-sandbox-4999999-abc');
  const alive = path.join(dir, `stagecraft-sandbox-${process.ppid}-def`);
  const other = path.join(dir, 'someone-else');
  // the older layout named no owner: `stagecraft-sandbox-XXXXXX`
  const unownedOld = path.join(dir, 'stagecraft-sandbox-Qx81Za');
  const unownedNew = path.join(dir, 'stagecraft-sandbox-Pp02Lm');
  for (const d of [dead, alive, other, unownedOld, unownedNew]) mkdirSync(d);
  const twoDaysAgo = (Date.now() - 2 * 24 * 3600 * 1000) / 1000;
  utimesSync(unownedOld, twoDaysAgo, twoDaysAgo);
  sweepAbandonedHomes(dir);
  assert.equal(existsSync(dead), false);
  assert.equal(existsSync(alive), true);
  assert.equal(existsSync(other), true);
  assert.equal(existsSync(unownedOld), false);
  assert.equal(existsSync(unownedNew), true, 'another process may still be using a fresh one');
});
