// Processor chains: on_error policies, the two contracts, the permission gate,
// abort semantics — through a real run on the memory store.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deps, phase, plan, playModel, post, runWith } from './testing';
import type { StepSpec } from './plan';
import type { CodeSandbox } from './ports';
import { EVENT } from './events';
import { StepFailedError } from './errors';
import type { Json, JsonSchema } from './json';
import { FUSE_MAX_STEPS } from './processors';
import { memoKey } from './memo';

const root = mkdtempSync(path.join(tmpdir(), 'sc-proc-'));
writeFileSync(path.join(root, 'a.txt'), 'alpha');

const base = { onError: 'fail' as const, emptyValue: null, line: 1 };
const validate = (index: number, schema: object, over: Partial<StepSpec> = {}): StepSpec => ({ ...base, index, type: 'validate', schema, ...over }) as StepSpec;
const readOp = (index: number, p: string, over: Partial<StepSpec> = {}): StepSpec =>
  ({ ...base, index, type: 'run_op', op: 'file/read', args: { path: p }, ...over }) as StepSpec;

const finishWith = (finish: object) => playModel([{ finish: finish as never }]);
const withPost = (steps: StepSpec[], callerContract: JsonSchema = { type: 'object' }) =>
  plan({
    postprocessor: post(steps, callerContract),
    callerContract,
    permittedOps: new Set(['file/read', 'ask_user']),
    effectGrants: new Set(['fs.read', 'user.ask']),
  });

test('on_error: fail aborts the skill with WorkflowAbortedError; the snapshot is deleted so it is never resumed', async () => {
  const d = deps(finishWith({ title: 'x' }), { fileRoot: root });
  const out = await runWith(withPost([readOp(0, 'nope.txt')]), d);
  assert.equal(out.status, 'aborted');
  assert.equal(out.error!.code, 'workflow_aborted');
  assert.equal(out.error!.phase, '__post__');
  assert.equal(out.error!.step, 0);
  assert.equal(out.error!.stepType, 'run_op');
  assert.match(String(out.error!.message), /postprocessor step 0 \(run_op.*no such file/);
  assert.equal(await d.store.readSnapshot(out.runId), null);
  assert.deepEqual(await d.store.listResumable(), []);
  const events = await d.store.readEvents(out.runId);
  assert.equal(events.at(-1)!.type, EVENT.runAborted);
  assert.equal(out.report!.outcome, 'blocked');
  assert.equal((await d.store.getRun(out.runId))!.status, 'aborted');
});

test('on_error: skip logs the failure and continues with the value unchanged', async () => {
  const d = deps(finishWith({ title: 'x' }), { fileRoot: root });
  const out = await runWith(withPost([readOp(0, 'nope.txt', { into: 'content' }), readOp(1, 'a.txt', { into: 'a' })].map((s, i) => (i === 0 ? { ...s, onError: 'skip' } : s)) as StepSpec[]), d);
  assert.equal(out.status, 'completed');
  assert.deepEqual(out.output, { title: 'x', a: 'alpha' });
  const steps = (await d.store.readEvents(out.runId)).filter((e) => e.type === EVENT.stepCompleted && e.data.kind === 'processor');
  assert.deepEqual(steps.map((e) => e.data.status), ['skipped', 'ok']);
});

test('on_error: empty writes the empty value of the into target type and continues', async () => {
  const d = deps(finishWith({ title: 'x' }), { fileRoot: root });
  const out = await runWith(withPost([{ ...readOp(0, 'nope.txt', { into: 'files' }), onError: 'empty', emptyValue: [] } as StepSpec]), d);
  assert.equal(out.status, 'completed');
  assert.deepEqual(out.output, { title: 'x', files: [] });
});

test('the caller contract is checked after the last step: a mismatch aborts like a failed step', async () => {
  const contract = { type: 'object', properties: { word_count: { type: 'integer' } }, required: ['word_count'] };
  const d = deps(finishWith({ title: 'x' }));
  const out = await runWith(withPost([validate(0, { type: 'object' })], contract), d);
  assert.equal(out.status, 'aborted');
  assert.match(String(out.error!.message), /postprocessor result does not satisfy its contract: \/ must have required property 'word_count'/);
});

test('the LLM contract is checked on the finish artifact: one retry round tells the model what was wrong', async () => {
  const schema = { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] };
  const model = playModel([{ finish: { titel: 'typo' } }, { finish: { title: 'fixed' } }]);
  const d = deps(model);
  const out = await runWith(plan({ phases: { main: phase('main', { outputSchema: schema }) }, llmContract: schema, callerContract: schema }), d);
  assert.equal(out.status, 'completed');
  assert.deepEqual(out.output, { title: 'fixed' });
  assert.match(model.requests[1].messages.at(-1)!.content, /must have required property 'title'/);
  const bad = playModel([{ finish: { titel: 1 } }, { finish: { titel: 2 } }]);
  const out2 = await runWith(plan({ phases: { main: phase('main', { outputSchema: schema }) } }), deps(bad));
  assert.equal(out2.status, 'failed');
  assert.equal(out2.error!.code, 'output_invalid');
});

test('validate fails with every ajv error located by JSON pointer', async () => {
  const schema = { type: 'object', properties: { n: { type: 'integer' }, s: { type: 'string' } } };
  const out = await runWith(withPost([validate(0, schema)]), deps(finishWith({ n: 'one', s: 2 })));
  assert.equal(out.status, 'aborted');
  assert.match(String(out.error!.message), /\/n must be integer; \/s must be string/);
});

test('ask_user is refused in processors with a grant error (never reaches the op)', async () => {
  let asked = 0;
  const d = deps(finishWith({ title: 'x' }), { askUser: async () => (asked++, 'yes') });
  const step = { ...base, index: 0, type: 'run_op', op: 'ask_user', args: { question: 'ok?' } } as StepSpec;
  const out = await runWith(withPost([step]), d);
  assert.equal(out.status, 'aborted');
  assert.equal(asked, 0);
  assert.match(String(out.error!.message), /may only be called by the model, never from a processor step/);
});

test('an op not in permissions.ops is refused by the gate', async () => {
  const p = withPost([readOp(0, 'a.txt', { into: 'a' })]);
  const out = await runWith({ ...p, permittedOps: new Set() }, deps(finishWith({}), { fileRoot: root }));
  assert.equal(out.status, 'aborted');
  assert.match(String(out.error!.message), /not permitted; add it to permissions\.ops/);
});

test('run_op args reference the current value; iterate collects per-element results into an array', async () => {
  const d = deps(finishWith({ files: [{ p: 'a.txt' }, { p: 'a.txt' }] }), { fileRoot: root });
  const inner = readOp(0, '${p}', { into: 'text' });
  const it = { ...base, index: 0, type: 'iterate', over: 'files', steps: [inner], into: 'read' } as StepSpec;
  const out = await runWith(withPost([it]), d);
  assert.equal(out.status, 'completed');
  assert.deepEqual((out.output as { read: unknown }).read, [
    { p: 'a.txt', text: 'alpha' },
    { p: 'a.txt', text: 'alpha' },
  ]);
});

test('lint_plan checks a plan against the registry and the gate without running it', async () => {
  const lint = { ...base, index: 0, type: 'lint_plan', plan: 'plan', rules: [], into: 'lint' } as StepSpec;
  const good = await runWith(withPost([lint]), deps(finishWith({ plan: [{ op: 'file/read', args: { path: 'a.txt' } }] })));
  assert.equal(good.status, 'completed');
  assert.deepEqual((good.output as { lint: unknown[] }).lint, []);
  const bad = await runWith(withPost([lint]), deps(finishWith({ plan: [{ op: 'file/write', args: {} }, { op: 'nope' }] })));
  assert.equal(bad.status, 'aborted');
  assert.match(String(bad.error!.message), /\[0\] op "file\/write" is not in permissions\.ops/);
  assert.match(String(bad.error!.message), /\[1\] op "nope" does not exist/);
});

test('code steps go to the sandbox with the current value; the result is merged or stored under into', async () => {
  const calls: unknown[] = [];
  const sandbox: CodeSandbox = { async call(c) { calls.push(c); return { words: 2 }; }, async close() {} };
  const step = { ...base, index: 0, type: 'python', module: './r.py', modulePath: '/b/r.py', function: 'count', timeoutMs: 500, pure: false } as StepSpec;
  const out = await runWith(withPost([step]), deps(finishWith({ body: 'a b' }), { sandbox }));
  assert.deepEqual(out.output, { body: 'a b', words: 2 });
  assert.deepEqual(calls, [{ language: 'python', modulePath: '/b/r.py', exportName: 'count', input: { body: 'a b' }, timeoutMs: 500 }]);
});

test('a preprocessor shapes the phase input and must satisfy input_schema', async () => {
  const model = playModel([{ finish: { ok: true } }]);
  const pre = { steps: [readOp(0, 'a.txt', { into: 'notes' })], outputSchema: { type: 'object', required: ['notes'] } };
  const p = plan({ phases: { main: phase('main', { preprocessor: pre, inputSchema: pre.outputSchema }) }, permittedOps: new Set(['file/read']), effectGrants: new Set(['fs.read']) });
  const d = deps(model, { fileRoot: root });
  const out = await runWith(p, d, { topic: 't' });
  assert.equal(out.status, 'completed');
  assert.match(model.requests[0].messages[1].content, /"notes": "alpha"/);
  const preSteps = (await d.store.readEvents(out.runId)).filter((e) => e.data.kind === 'processor');
  assert.deepEqual(preSteps.map((e) => [e.data.phase, e.data.position, e.data.nested ?? false]), [['main', 'main/pre/0', false]]);
});

test('a machine-derived field the model writes anyway is overridden by the derived value, and the override is recorded', async () => {
  const schema = { type: 'object', properties: { summary: { type: 'string' }, outcome: { 'x-derived': 'outcome' } }, required: ['summary'] };
  const model = playModel([{ finish: { summary: 'All good.', outcome: 'failed' } }]);
  const d = deps(model);
  const out = await runWith(plan({ phases: { main: phase('main', { outputSchema: schema }) } }), d);
  assert.equal(out.status, 'completed');
  assert.deepEqual(out.output, { summary: 'All good.', outcome: 'succeeded' });
  const overrides = (await d.store.readEvents(out.runId)).filter((e) => e.type === EVENT.factOverridden);
  assert.equal(overrides.length, 1);
  assert.deepEqual([overrides[0].data.field, overrides[0].data.modelValue, overrides[0].data.derivedValue], ['outcome', 'failed', 'succeeded']);
  // and the response_format the model was sent does not ask for it
  const rf = model.requests[0].responseFormat as { properties: Record<string, unknown> };
  assert.ok(!('outcome' in rf.properties));
  assert.ok('summary' in rf.properties);
});

test('consecutive pure code steps of one module run as one worker request, and are recorded one by one', async () => {
  const calls: unknown[] = [];
  const sandbox: CodeSandbox = {
    async call(c): Promise<Json> {
      calls.push(c);
      if (!c.chain) return { single: true };
      // a worker: merge as the kernel does; the third step "fails"
      let v = c.input as Record<string, unknown>;
      const outputs = [];
      for (const [i, s] of c.chain.entries()) {
        if (i === 2) break;
        const out = { [`k${i}`]: s.exportName };
        outputs.push(out);
        v = { ...v, ...out };
      }
      return { outputs };
    },
    async close() {},
  };
  const code = (index: number, fn: string) => ({ ...base, index, type: 'node', module: './m.mjs', modulePath: '/b/m.mjs', function: fn, timeoutMs: 500, pure: true }) as StepSpec;
  const d = deps(finishWith({ t: 1 }), { sandbox });
  const out = await runWith(withPost([code(0, 'a'), code(1, 'b'), code(2, 'c'), code(3, 'd')]), d);
  assert.equal(out.status, 'completed', JSON.stringify(out.error));
  // one fused request for 0..3, which stopped after two; step 2 ran alone; step 3 alone (a run of one)
  assert.equal(calls.length, 3);
  assert.deepEqual((calls[0] as { chain: unknown[] }).chain.length, 4);
  assert.deepEqual(out.output, { t: 1, k0: 'a', k1: 'b', single: true });
  const recorded = (await d.store.readEvents(out.runId)).filter((e) => e.data.kind === 'processor');
  assert.deepEqual(recorded.map((e) => e.data.position), ['__post__/0', '__post__/1', '__post__/2', '__post__/3']);
  // each recorded with its own input: the second step's key differs from a run where the first output differed
  assert.notEqual(recorded[0].data.key, recorded[1].data.key);
});

test('a chain longer than one request: the next request is sent before the steps of the one before are recorded, each step recorded as if alone', async () => {
  const n = FUSE_MAX_STEPS + 10;
  /** per request: its size, and how many processor steps the store held when it was sent */
  const sent: { steps: number; recordedBefore: number }[] = [];
  const sandbox: CodeSandbox = {
    async call(c): Promise<Json> {
      const runs = await d.store.listRuns();
      const events = runs.length ? await d.store.readEvents(runs[0].id) : [];
      sent.push({ steps: c.chain?.length ?? 1, recordedBefore: events.filter((e) => e.data.kind === 'processor').length });
      let v = c.input as { n?: number };
      const outputs = [];
      for (const s of c.chain ?? []) {
        const out = { n: (v.n ?? 0) + 1, [s.exportName]: true };
        outputs.push(out);
        v = { ...v, ...out };
      }
      return { outputs };
    },
    async close() {},
  };
  const code = (index: number) => ({ ...base, index, type: 'node', module: './m.mjs', modulePath: '/b/m.mjs', function: 'f', timeoutMs: 500, pure: true }) as StepSpec;
  const d = deps(finishWith({ t: 1 }), { sandbox });
  const out = await runWith(withPost(Array.from({ length: n }, (_, i) => code(i))), d);
  assert.equal(out.status, 'completed', JSON.stringify(out.error));
  assert.deepEqual(out.output, { t: 1, n, f: true });
  // the second request went out with the value the first one's outputs make, before any of them was recorded
  assert.deepEqual(sent, [{ steps: FUSE_MAX_STEPS, recordedBefore: 0 }, { steps: 10, recordedBefore: 0 }]);
  const recorded = (await d.store.readEvents(out.runId)).filter((e) => e.data.kind === 'processor');
  assert.deepEqual(recorded.map((e) => e.data.position), Array.from({ length: n }, (_, i) => `__post__/${i}`));
  // the first step of the request sent ahead has the key of its own input, as if it had run alone
  const first = recorded[FUSE_MAX_STEPS];
  const input = { t: 1, n: FUSE_MAX_STEPS, f: true };
  assert.equal(first.data.key, memoKey('__post__', `__post__/${FUSE_MAX_STEPS}`, String(first.data.defHash), input));
  assert.deepEqual(first.data.output, { n: FUSE_MAX_STEPS + 1, f: true });
});

test('file ops stay inside the run root: a new file under a symlinked folder that points outside is refused', async () => {
  const { mkdirSync, symlinkSync, existsSync } = await import('node:fs');
  const outside = mkdtempSync(path.join(tmpdir(), 'sc-outside-'));
  const rootDir = mkdtempSync(path.join(tmpdir(), 'sc-root-'));
  mkdirSync(path.join(rootDir, 'real'));
  symlinkSync(outside, path.join(rootDir, 'link'));
  const write = (p: string) => ({ ...base, index: 0, type: 'run_op', op: 'file/write', args: { path: p, content: 'x' }, into: 'w' }) as StepSpec;
  const p = plan({ postprocessor: post([write('link/new.txt')]), permittedOps: new Set(['file/write']), effectGrants: new Set(['fs.write']) });
  const out = await runWith(p, deps(finishWith({}), { fileRoot: rootDir }));
  assert.equal(out.status, 'aborted');
  assert.match(String(out.error!.message), /link is a symbolic link; file ops never follow links/);
  assert.equal(existsSync(path.join(outside, 'new.txt')), false);
  const ok = await runWith({ ...p, postprocessor: post([write('real/new.txt')]) }, deps(finishWith({}), { fileRoot: rootDir }));
  assert.equal(ok.status, 'completed');
});

test('the finish artifact path is reserved: workspace/write cannot overwrite it', async () => {
  const step = { ...base, index: 0, type: 'run_op', op: 'workspace/write', args: { path: '.stagecraft/finish.json', content: {} } , into: 'w' } as StepSpec;
  const p = plan({ postprocessor: post([step]), permittedOps: new Set(['workspace/write']), effectGrants: new Set(['workspace.write']) });
  const out = await runWith(p, deps(finishWith({ a: 1 })));
  assert.equal(out.status, 'aborted');
  assert.match(String(out.error!.message), /reserved for the kernel/);
});

test('a fused request that fails as a whole (the worker died) runs each of its steps alone, without fusing the rest again', async () => {
  const calls: unknown[] = [];
  const sandbox: CodeSandbox = {
    async call(c): Promise<Json> {
      calls.push(c);
      if (c.chain) throw new StepFailedError('code_error', 'the worker exited (code 1)');
      return { [`k${calls.length}`]: c.exportName };
    },
    async close() {},
  };
  const code = (index: number, fn: string) => ({ ...base, index, type: 'node', module: './m.mjs', modulePath: '/b/m.mjs', function: fn, timeoutMs: 500, pure: true }) as StepSpec;
  const d = deps(finishWith({ t: 1 }), { sandbox });
  const out = await runWith(withPost([code(0, 'a'), code(1, 'b'), code(2, 'c'), code(3, 'd')]), d);
  assert.equal(out.status, 'completed', JSON.stringify(out.error));
  // one fused request, then the four steps one by one: not a fused request for 1..3, then for 2..3
  assert.deepEqual(calls.map((c) => ((c as { chain?: unknown[] }).chain ? 'fused' : (c as { exportName: string }).exportName)), ['fused', 'a', 'b', 'c', 'd']);
  assert.deepEqual(out.output, { t: 1, k2: 'a', k3: 'b', k4: 'c', k5: 'd' });
});

test("file/read reads the run's folder first, then the bundle (read-only); file/write never writes the bundle", async () => {
  const { readFileSync } = await import('node:fs');
  const bundle = mkdtempSync(path.join(tmpdir(), 'sc-bundle-'));
  writeFileSync(path.join(bundle, 'data.txt'), 'from the bundle');
  const workspace = mkdtempSync(path.join(tmpdir(), 'sc-ws-'));
  const write = (index: number, content: string) => ({ ...base, index, type: 'run_op', op: 'file/write', args: { path: 'data.txt', content }, into: `w${index}` }) as StepSpec;
  const p = plan({
    postprocessor: post([readOp(0, 'data.txt', { into: 'before' }), write(1, 'from the run'), readOp(2, 'data.txt', { into: 'after' })]),
    permittedOps: new Set(['file/read', 'file/write']),
    effectGrants: new Set(['fs.read', 'fs.write']),
  });
  const out = await runWith(p, deps(finishWith({}), { fileRoot: workspace, fileReadFallback: bundle }));
  assert.equal(out.status, 'completed', JSON.stringify(out.error));
  assert.equal((out.output as { before: string }).before, 'from the bundle');
  assert.equal((out.output as { after: string }).after, 'from the run');
  assert.equal(readFileSync(path.join(bundle, 'data.txt'), 'utf8'), 'from the bundle');
  assert.equal(readFileSync(path.join(workspace, 'data.txt'), 'utf8'), 'from the run');
  // a path that escapes is refused for the fallback too
  const escape = await runWith(plan({ postprocessor: post([readOp(0, '../x.txt')]), permittedOps: new Set(['file/read']), effectGrants: new Set(['fs.read']) }), deps(finishWith({}), { fileRoot: workspace, fileReadFallback: bundle }));
  assert.equal(escape.status, 'aborted');
  assert.match(String(escape.error!.message), /leaves the run root/);
});
