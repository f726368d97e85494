// Facts from evidence, table-driven: given these events, this report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deriveReport, derivedFields } from './report';
import type { RunEvent } from './ports';

let seq = 0;
const ev = (type: string, data: RunEvent['data'] = {}): RunEvent => ({ runId: 'r', seq: ++seq, type, at: seq, data });
const step = (kind: string, data: RunEvent['data'] = {}) => ev('step_completed', { kind, status: 'ok', ...data });

const CASES: { name: string; events: RunEvent[]; expect: Partial<ReturnType<typeof deriveReport>> }[] = [
  {
    name: 'a completed run with nothing denied succeeded',
    events: [ev('run_started'), step('model'), step('processor'), ev('run_completed')],
    expect: { outcome: 'succeeded', block_reason: null, failed_stage: null, rounds: 1 },
  },
  {
    name: 'an aborted run is blocked, with the abort message as the reason',
    events: [ev('run_started'), step('processor', { status: 'failed' }), ev('run_aborted', { error: { code: 'workflow_aborted', message: 'postprocessor step 0 failed' } })],
    expect: { outcome: 'blocked', block_reason: 'postprocessor step 0 failed' },
  },
  {
    name: 'a crashed stage fails the run and is the failed stage',
    events: [
      ev('run_started'),
      step('stage', { status: 'failed', phase: 'draft', position: 'draft/r2/post-tool/budget', rung: 'post-tool', stage: 'budget', capability: 'budget', round: 2, output: { error: { message: 'boom' } } }),
      ev('run_failed', { error: { code: 'stage_crashed', message: 'stage budget crashed' } }),
    ],
    expect: {
      outcome: 'failed',
      block_reason: 'stage budget crashed',
      failed_stage: { phase: 'draft', rung: 'post-tool', stage: 'budget', capability: 'budget', round: 2, error: 'boom', position: 'draft/r2/post-tool/budget' },
    },
  },
  {
    name: 'a completed run in which a guard denied a tool call is blocked, with the denial as the reason',
    events: [ev('run_started'), step('stage', { stage: 'guard', output: { contribution: { deny: { 0: 'no secrets' } } } }), ev('run_completed')],
    expect: { outcome: 'blocked', block_reason: 'stage guard denied a tool call: no secrets' },
  },
  {
    name: 'changed paths come from file and workspace writes, sorted and unique',
    events: [
      step('tool', { op: 'file/write', output: { path: 'b.txt' } }),
      step('tool', { op: 'workspace/write', output: { path: 'notes/x.json' } }),
      step('tool', { op: 'file/write', output: { path: 'a.txt' } }),
      step('tool', { op: 'file/write', output: { path: 'a.txt' } }),
      step('tool', { op: 'file/read', output: 'text' }),
      ev('run_completed'),
    ],
    expect: { changed_paths: ['a.txt', 'b.txt', 'workspace:notes/x.json'] },
  },
];

for (const c of CASES) {
  test(c.name, () => {
    const r = deriveReport(c.events);
    for (const [k, v] of Object.entries(c.expect)) assert.deepEqual(r[k as keyof typeof r], v, k);
  });
}

test('a step re-executed on resume (a world-purity read) counts once', () => {
  const r = deriveReport([step('tool', { position: 'a/r1/tool/0' }), ev('run_resumed'), step('tool', { position: 'a/r1/tool/0' }), ev('run_completed')]);
  assert.equal(r.step_counts.tool, 1);
});

test('step counts by kind and processor steps by status', () => {
  const r = deriveReport([step('model'), step('model'), step('tool'), step('processor'), step('processor', { status: 'skipped' }), step('stage')]);
  assert.deepEqual(r.step_counts, { model: 2, tool: 1, stage: 1, processor: 2, processor_by_status: { ok: 1, skipped: 1 }, stage_by_status: { ok: 1 }, tool_by_status: { ok: 1 } });
});

test('x-derived marks machine-derived fields of an output schema', () => {
  const schema = { type: 'object', properties: { summary: { type: 'string' }, outcome: { 'x-derived': 'outcome' }, changed: { 'x-derived': 'changed_paths' }, block_reason: { 'x-derived': true } } };
  assert.deepEqual(derivedFields(schema), { outcome: 'outcome', changed: 'changed_paths', block_reason: 'block_reason' });
});

// ---------------------------------------------------------------- words that say what happened

const BUNDLE = '/data/bundles/ab12cd';
const started = () => ev('run_started', { skill: 'brief', skillHash: 'h1', bundleDir: BUNDLE });

test('a run aborted by a failing step says so: the step, its on_error: fail, its error once with its traceback relative to the bundle', () => {
  const traceback = `Traceback (most recent call last):\n  File "${BUNDLE}/render.py", line 12, in to_html\n    return value["body"]\nKeyError: 'body'`;
  const r = deriveReport([
    started(),
    step('processor', {
      phase: '__post__', position: '__post__/2', index: 2, type: 'python', onError: 'fail', status: 'failed',
      output: { error: { code: 'code_failed', message: `python function to_html in ${BUNDLE}/render.py raised KeyError: 'body'\n${traceback}`, traceback, where: `${BUNDLE}/render.py:12` } },
    }),
    ev('run_aborted', {
      error: { code: 'workflow_aborted', message: 'postprocessor step 2 failed' },
      abort: { by: 'step', phase: '__post__', position: '__post__/2', index: 2, type: 'python', onError: 'fail' },
    }),
  ]);
  assert.equal(r.status, 'aborted');
  assert.equal(r.summary, "Aborted by postprocessor step __post__/2 (python, on_error: fail): python function to_html in render.py raised KeyError: 'body'");
  assert.deepEqual(r.failed_step, { phase: '__post__', position: '__post__/2', index: 2, type: 'python', on_error: 'fail', error: "python function to_html in render.py raised KeyError: 'body'" });
  assert.equal(r.error?.message, "python function to_html in render.py raised KeyError: 'body'");
  assert.equal(r.error?.stack, 'Traceback (most recent call last):\n  File "render.py", line 12, in to_html\n    return value["body"]\nKeyError: \'body\'');
  assert.deepEqual(r.error?.where, { file: 'render.py', line: 12 });
  assert.equal(r.error?.position, '__post__/2');
  assert.equal(r.needs_attention, true);
  assert.equal(r.attention, 'aborted');
});

test('an abort someone asked for says who and why, and needs no attention', () => {
  const r = deriveReport([started(), ev('run_aborted', { error: { code: 'workflow_aborted', message: 'aborted on request: stale' }, abort: { by: 'request', reason: 'stale', requestedBy: 'cli (user dana)' } })]);
  assert.equal(r.summary, 'Aborted on request by cli (user dana): stale');
  assert.equal(r.error, null);
  assert.equal(r.needs_attention, false);
  assert.equal(r.attention, null);
});

test('a log recorded before aborts said why still tells a request from a step', () => {
  const req = deriveReport([started(), ev('run_aborted', { error: { code: 'workflow_aborted', message: 'aborted on request: stale' } })]);
  assert.deepEqual(req.aborted_by, { by: 'request', reason: 'stale', requestedBy: 'unknown' });
  const byStep = deriveReport([started(), step('processor', { phase: 'draft', position: 'draft/pre/0', index: 0, type: 'validate', status: 'failed', output: { error: { message: 'bad' } } }), ev('run_aborted', { error: { message: 'phase draft preprocessor step 0 failed: bad' } })]);
  assert.equal(byStep.aborted_by?.by, 'step');
  assert.equal(byStep.summary, 'Aborted by phase draft preprocessor step draft/pre/0 (validate, on_error: fail): bad');
});

test('a completed run with a blocked outcome says what blocked it', () => {
  const r = deriveReport([started(), step('stage', { stage: 'path_guard', position: 'gather/r1/pre-tool/path_guard', output: { contribution: { deny: { 2: 'reading secrets/keys.txt is not allowed' } } } }), ev('run_completed')]);
  assert.equal(r.outcome, 'blocked');
  assert.deepEqual(r.blocked_by, { stage: 'path_guard', position: 'gather/r1/pre-tool/path_guard', call: 2, reason: 'reading secrets/keys.txt is not allowed' });
  assert.equal(r.summary, 'Completed, but blocked: stage path_guard denied call 2 (reading secrets/keys.txt is not allowed).');
  assert.equal(r.attention, 'blocked');
});

test('a call a pre-tool stage denied counts among the tool calls as denied, once however many stages deny it or records repeat', () => {
  const guard = (stage: string, deny: Record<string, string>) =>
    step('stage', { stage, rung: 'pre-tool', position: `gather/r1/pre-tool/${stage}`, output: { contribution: { deny } } });
  const r = deriveReport([
    started(),
    step('model', { position: 'gather/r1/model' }),
    guard('path_guard', { 1: 'no secrets' }),
    guard('path_guard', { 1: 'no secrets' }), // recorded again on a resume
    guard('budget', { 1: 'over budget', 2: 'over budget' }),
    step('tool', { position: 'gather/r1/tool/0' }),
    ev('run_completed'),
  ]);
  assert.equal(r.step_counts.tool, 3);
  assert.deepEqual(r.step_counts.tool_by_status, { ok: 1, denied: 2 });
  // a stage that was refused (its contribution never applied) denied nothing
  const refused = deriveReport([started(), step('stage', { stage: 'g', rung: 'pre-tool', status: 'refused', position: 'gather/r1/pre-tool/g', output: { contribution: { deny: { 0: 'x' } } } }), ev('run_completed')]);
  assert.equal(refused.step_counts.tool, 0);
});

test('a crashed stage is the one error, with its stack relative to the bundle and where it was raised', () => {
  const stack = `TypeError: Cannot read properties of null (reading 'content')\n    at budget (file://${BUNDLE}/caps.mjs:14:22)\n    at run (node:internal/x:1:1)`;
  const r = deriveReport([
    started(),
    step('stage', { status: 'failed', phase: 'draft', position: 'draft/r2/post-tool/budget', rung: 'post-tool', stage: 'budget', capability: 'budget', round: 2, output: { error: { message: "Cannot read properties of null (reading 'content')", stack } } }),
    ev('run_failed', { error: { code: 'stage_crashed', message: 'stage "budget" crashed' } }),
  ]);
  assert.equal(r.summary, "Failed: stage budget (capability budget) crashed on the post-tool rung of draft, round 2: Cannot read properties of null (reading 'content')");
  assert.equal(r.error?.stack, '    at budget (caps.mjs:14:22)\n    at run (node:internal/x:1:1)');
  assert.deepEqual(r.error?.where, { file: 'caps.mjs', line: 14 });
  assert.equal(r.error?.position, 'draft/r2/post-tool/budget');
  assert.equal(r.attention, 'failed');
});

test('the version is the skill hash it started with, and any other a resume ran', () => {
  const r = deriveReport([started(), ev('run_resumed', { skillHash: 'h1' }), ev('run_resumed', { skillHash: 'h2' }), ev('run_completed')]);
  assert.deepEqual(r.version, { skill: 'brief', skill_hash: 'h1', resumed_with: ['h2'] });
});

test('a nested step failure an enclosing iterate skipped is not the failed step of a run the model contract then stopped', () => {
  const r = deriveReport([
    ev('run_started'),
    step('processor', { status: 'failed', phase: 'draft', position: 'draft/pre/0/1/0', index: 0, type: 'python', nested: true, output: { error: { message: 'KeyError' } } }),
    step('processor', { status: 'skipped', phase: 'draft', position: 'draft/pre/0', index: 0, type: 'iterate', onError: 'skip', output: { error: { message: 'KeyError' } } }),
    step('model'),
    ev('run_failed', { error: { code: 'output_invalid', message: 'the model could not satisfy its contract', phase: 'draft' } }),
  ]);
  assert.equal(r.failed_step, null);
  assert.equal(r.summary, 'Failed: the model could not satisfy its contract');
  assert.equal(r.step_counts.processor_by_status.failed, 1, 'the nested failure is still counted');
});

test("a replay's summary says how many of its counts were answered from the recording, as the Model rounds card does", () => {
  const rec = { recorded: { runId: 'parent', seq: 1 } };
  const all = deriveReport([ev('run_started'), step('model', rec), step('model', rec), step('tool', rec), step('tool'), step('stage'), ev('run_completed')]);
  assert.equal(all.summary, 'Completed: 2 model rounds (all 2 reused from the recording), 2 tool calls (1 reused), 1 stage, 0 processor steps.');
  const some = deriveReport([ev('run_started'), step('model', rec), step('model'), step('tool', rec), ev('run_completed')]);
  assert.equal(some.summary, 'Completed: 2 model rounds (1 reused from the recording), 1 tool call (1 reused), 0 stages, 0 processor steps.');
  const toolsOnly = deriveReport([ev('run_started'), step('model'), step('tool', rec), step('tool', rec), ev('run_completed')]);
  assert.equal(toolsOnly.summary, 'Completed: 1 model round, 2 tool calls (all 2 reused from the recording), 0 stages, 0 processor steps.');
  // and the counts themselves, for the run page's cards to say as the summary does
  assert.deepEqual(all.reused, { model: 2, tool: 1, stage: 0, processor: 0 });
  assert.deepEqual(toolsOnly.reused, { model: 0, tool: 2, stage: 0, processor: 0 });
});

test('a run that reused nothing keeps the plain counts', () => {
  const r = deriveReport([ev('run_started'), step('model'), step('tool'), step('tool'), step('stage'), ev('run_completed')]);
  assert.equal(r.summary, 'Completed: 1 model round, 2 tool calls, 1 stage, 0 processor steps.');
  assert.deepEqual(r.reused, { model: 0, tool: 0, stage: 0, processor: 0 });
});
