// What a user capability (a stage's module code, run in the sandbox) printed when its call returned
// is kept on the stage's record (`stdout`, `stderr` after its other members), as a code step's is; a
// capability that printed nothing records what it always did, byte for byte. Printed output is not a
// result: the stage's key is the same, and a replay whose capability prints other text is identical.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { knownText } from './data-text';
import { MemoryStore } from './memory-store';
import { EVENT } from './events';
import type { CodeSandbox, PrintedOutput, RunEvent } from './ports';
import type { StageSpec } from './plan';
import { deps, phase, playModel, plan, printingSandbox as preparingSandbox, replayOf, stage } from './testing';
import { startRun } from './runner';
import { compareLogs } from './compare';

const cap = (name: string, rung: StageSpec['rung'] = 'post-model'): StageSpec =>
  stage(name, rung, [], { binding: { kind: 'module', module: './caps.mjs', modulePath: '/bundle/caps.mjs', exportName: name } });

/** `fn` answers a capability's call (by its export) and says what it printed */
const printingSandbox = (fn: (exportName: string) => { value: unknown; printed?: PrintedOutput }) => preparingSandbox((c) => fn(c.exportName));

const stageSteps = (events: RunEvent[]) => events.filter((e) => e.type === EVENT.stepCompleted && e.data.kind === 'stage');

async function runStages(stages: StageSpec[], sandbox: CodeSandbox, store = new MemoryStore()) {
  const p = plan({ stageProgram: stages, phases: { main: phase('main') } });
  const out = await startRun(p, deps(playModel([{ finish: {} }]), { store, sandbox }), { input: {}, skillText: '' });
  return { out, store, plan: p, events: await store.readEvents(out.runId) };
}

const HEAD = ['stage', 'capability', 'rung', 'round', 'kind', 'phase', 'position', 'key', 'defHash', 'definition', 'status', 'output', 'durationMs'];

test("a capability's stdout and stderr end its stage's record; one that printed nothing has neither member", async () => {
  const { sandbox } = printingSandbox((name) =>
    name === 'loud'
      ? { value: null, printed: { stdout: 'checked 2 claims\n', stderr: 'careful\n' } }
      : name === 'errOnly'
        ? { value: {}, printed: { stdout: '', stderr: 'warn' } }
        : { value: null },
  );
  const { out, events } = await runStages([cap('loud'), cap('errOnly'), cap('quiet')], sandbox);
  assert.equal(out.status, 'completed', JSON.stringify(out.error));
  const [loud, errOnly, quiet] = stageSteps(events).map((e) => e.data);
  assert.deepEqual(Object.keys(loud), [...HEAD, 'stdout', 'stderr']);
  assert.equal(loud.stdout, 'checked 2 claims\n');
  assert.equal(loud.stderr, 'careful\n');
  assert.deepEqual(Object.keys(errOnly), [...HEAD, 'stderr']);
  assert.equal(errOnly.stderr, 'warn');
  assert.deepEqual(Object.keys(quiet), HEAD);
  // the record's text (what the store writes) is its JSON
  for (const e of stageSteps(events)) assert.ok(knownText(e.data) === undefined || knownText(e.data) === JSON.stringify(e.data));
});

test("printed output is not the stage's result: the same key, and its output is only the contribution", async () => {
  const loud = printingSandbox(() => ({ value: null, printed: { stdout: 'hello\n', stderr: '' } }));
  const quiet = printingSandbox(() => ({ value: null }));
  const a = stageSteps((await runStages([cap('check')], loud.sandbox)).events)[0].data;
  const b = stageSteps((await runStages([cap('check')], quiet.sandbox)).events)[0].data;
  assert.equal(a.key, b.key);
  assert.deepEqual(a.output, b.output);
  assert.deepEqual(a.output, { contribution: {} });
});

test('a capability that printed, then returned what is not a contribution (a failed stage): what it printed is on its record', async () => {
  const { sandbox } = printingSandbox(() => ({ value: [1, 2], printed: { stdout: 'made a list\n', stderr: '' } }));
  const { out, events } = await runStages([cap('listy')], sandbox);
  assert.equal(out.status, 'failed');
  const [d] = stageSteps(events).map((e) => e.data);
  assert.equal(d.status, 'failed');
  assert.equal(d.stdout, 'made a list\n');
});

test("a replay whose capability prints other text (a time, a count) is identical: printed output is not a stage's result", async () => {
  let n = 0;
  const { sandbox } = printingSandbox(() => ({ value: null, printed: { stdout: `call ${++n} at ${1000 + 7 * n} ms\n`, stderr: '' } }));
  const rec = await runStages([cap('clock')], sandbox);
  assert.equal(rec.out.status, 'completed');
  const { out: replay, events } = await replayOf(rec.plan, rec.store, { runId: rec.out.runId, events: rec.events }, sandbox);
  assert.equal(replay.status, 'completed', JSON.stringify(replay.error));
  // the replay ran its capability: its record holds what it printed this time, not the recording's
  assert.deepEqual(stageSteps(events).map((e) => String(e.data.stdout).split(' at ')[0]), ['call 2']);
  const cmp = compareLogs(rec.events, events);
  assert.deepEqual(cmp.divergences, []);
  assert.ok(cmp.rows.every((row) => row.change === 'same'));
});
