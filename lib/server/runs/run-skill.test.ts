// run_skill: a postprocessor step runs another bundle of the same workspace as
// a run of its own (linked by parentRunId) and gets its caller artifact.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MemoryStore } from '../../kernel/memory-store';
import { childRunFns, startSkillRun } from './start-run';
import { runChildSkill, type RunFns } from './child-skill';
import { memoryHost } from '../testing';

const workspace = mkdtempSync(path.join(tmpdir(), 'sc-runskill-'));
cpSync(path.resolve('examples/summarize'), path.join(workspace, 'summarize'), { recursive: true });
mkdirSync(path.join(workspace, 'digest'));
writeFileSync(
  path.join(workspace, 'digest', 'skill.md'),
  `---
name: digest
entry: pick
graph:
  pick: []
output_schema: { type: object, properties: { path: { type: string } }, required: [path] }
permissions:
  ops: [run_skill]
postprocessor:
  output_schema: { type: object, required: [path, summary] }
  steps:
    - type: run_op
      op: run_skill
      args: { skill: summarize, input: { path: "\${path}" } }
      into: summary
---
Pick the document to digest.
`,
);
writeFileSync(path.join(workspace, 'digest', 'model.yaml'), 'turns:\n  - finish: { path: report.txt }\n');

test('run_skill runs the sibling bundle as a child run and returns its caller artifact', async () => {
  const store = new MemoryStore();
  const out = await startSkillRun(memoryHost({ cwd: workspace, store }), { bundle: 'digest', input: {} });
  assert.equal(out.status, 'completed', JSON.stringify(out.error));
  const summary = (out.output as { summary: { paragraphs: string[]; redactions: number } }).summary;
  assert.equal(summary.redactions, 2);
  const runs = await store.listRuns();
  const child = runs.find((r) => r.skillName === 'summarize')!;
  assert.equal(child.parentRunId, out.runId);
  assert.equal(child.status, 'completed');
});

test('run_skill naming a bundle that does not exist fails the step with a clear error', async () => {
  writeFileSync(path.join(workspace, 'digest', 'model.yaml'), 'turns:\n  - finish: { path: report.txt }\n');
  const broken = path.join(workspace, 'broken');
  cpSync(path.join(workspace, 'digest'), broken, { recursive: true });
  const text = (await import('node:fs')).readFileSync(path.join(broken, 'skill.md'), 'utf8').replace('name: digest', 'name: broken').replace('skill: summarize', 'skill: nowhere');
  writeFileSync(path.join(broken, 'skill.md'), text);
  const out = await startSkillRun(memoryHost({ cwd: workspace }), { bundle: 'broken', input: {} });
  assert.equal(out.status, 'aborted');
  assert.match(String(out.error!.message), /nowhere/);
});

test('a child run is named by its parent and calling step: asked again (a resumed parent), it is reused, not re-run', async () => {
  const store = new MemoryStore();
  const host = memoryHost({ cwd: workspace, store });
  let starts = 0;
  const fns: RunFns = {
    start: async (h, req) => {
      starts++;
      return childRunFns.start(h, req);
    },
    resume: async () => {
      throw new Error('not expected');
    },
  };
  const req = { skill: 'summarize', input: { path: 'report.txt' }, parentRunId: 'run_parent', fromBundleDir: path.join(workspace, 'digest'), position: '__post__/0/op' };
  const first = await runChildSkill(host, req, fns);
  const second = await runChildSkill(host, req, fns);
  assert.equal(starts, 1);
  assert.deepEqual(second, first);
  // a bundle outside the workspace is refused
  await assert.rejects(runChildSkill(host, { ...req, skill: '../../etc' }, fns), /outside this workspace/);
  await assert.rejects(runChildSkill(host, { ...req, skill: '/tmp/x' }, fns), /not an absolute path/);
});

test('a skill that calls itself stops at the nesting limit with a clear error', async () => {
  const self = path.join(workspace, 'ouroboros');
  mkdirSync(self, { recursive: true });
  writeFileSync(
    path.join(self, 'skill.md'),
    '---\nname: ouroboros\nentry: go\ngraph:\n  go: []\noutput_schema: { type: object }\npermissions:\n  ops: [run_skill]\npostprocessor:\n  output_schema: { type: object }\n  steps:\n    - { type: run_op, op: run_skill, args: { skill: ouroboros }, into: again }\n---\nAgain.\n',
  );
  writeFileSync(path.join(self, 'model.yaml'), 'turns:\n  - finish: {}\n');
  const out = await startSkillRun(memoryHost({ cwd: workspace }), { bundle: 'ouroboros', input: {} });
  assert.equal(out.status, 'aborted');
  assert.match(String(out.error!.message), /nested more than 5 deep/);
});

test('a run starts at most STAGECRAFT_MAX_DESCENDANTS runs (its children’s own included): the next run_skill fails, naming the limit', async () => {
  const bundle = (name: string, steps: string) => {
    const dir = path.join(workspace, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'skill.md'),
      `---\nname: ${name}\nentry: go\ngraph:\n  go: []\noutput_schema: { type: object }\npermissions:\n  ops: [run_skill]\npostprocessor:\n  output_schema: { type: object }\n  steps:\n${steps}---\nGo.\n`,
    );
    writeFileSync(path.join(dir, 'model.yaml'), `turns:\n  - finish: { items: [1, 2, 3, 4, 5, 6, 7, 8] }\n`);
  };
  bundle('leaf', '    - { type: validate, schema: { type: object } }\n');
  // each `pair` starts one leaf: so a fan of 8 pairs asks for 16 runs
  bundle('pair', '    - { type: run_op, op: run_skill, args: { skill: leaf }, into: leaf }\n');
  bundle('fan', '    - type: iterate\n      over: items\n      into: done\n      steps:\n        - { type: run_op, op: run_skill, args: { skill: pair, input: { n: "${value}" } }, into: r }\n');
  const store = new MemoryStore();
  const out = await startSkillRun(memoryHost({ cwd: workspace, store, env: { STAGECRAFT_MAX_DESCENDANTS: '5' } }), { bundle: 'fan', input: {} });
  assert.equal(out.status, 'aborted');
  assert.match(String(out.error!.message), /has already started 5 runs through run_skill .*STAGECRAFT_MAX_DESCENDANTS=5/);
  const descendants = (await store.listRuns()).filter((r) => r.id.startsWith(`${out.runId}.`));
  assert.equal(descendants.length, 5, 'no sixth run was started');
  assert.ok(descendants.some((r) => r.parentRunId !== out.runId), 'grandchildren count too');
});

test('STAGECRAFT_MAX_DESCENDANTS defaults to 100; a value that is not a positive whole number is refused', async () => {
  const { maxDescendants } = await import('../limits');
  assert.equal(maxDescendants({}), 100);
  assert.equal(maxDescendants({ STAGECRAFT_MAX_DESCENDANTS: '7' }), 7);
  assert.throws(() => maxDescendants({ STAGECRAFT_MAX_DESCENDANTS: 'lots' }), /STAGECRAFT_MAX_DESCENDANTS="lots": give .* whole number of at least 1 \(default 100\)/);
});

test('aborting a parent while its run_skill child is in flight: the child is aborted too, its 60 s code step cut short', async () => {
  mkdirSync(path.join(workspace, 'sleeper'));
  writeFileSync(
    path.join(workspace, 'sleeper', 'skill.md'),
    '---\nname: sleeper\nentry: go\ngraph:\n  go: []\noutput_schema: { type: object }\npostprocessor:\n  output_schema: { type: object }\n  steps:\n    - { type: node, module: ./nap.mjs, function: nap, timeout_ms: 120000 }\n---\nGo.\n',
  );
  writeFileSync(path.join(workspace, 'sleeper', 'nap.mjs'), 'export async function nap(v) { await new Promise((r) => setTimeout(r, 60000)); return v; }\n');
  writeFileSync(path.join(workspace, 'sleeper', 'model.yaml'), 'turns:\n  - finish: {}\n');
  mkdirSync(path.join(workspace, 'caller'));
  writeFileSync(
    path.join(workspace, 'caller', 'skill.md'),
    '---\nname: caller\nentry: go\ngraph:\n  go: []\noutput_schema: { type: object }\npermissions:\n  ops: [run_skill]\npostprocessor:\n  output_schema: { type: object }\n  steps:\n    - { type: run_op, op: run_skill, args: { skill: sleeper, input: {} }, into: slept }\n---\nGo.\n',
  );
  writeFileSync(path.join(workspace, 'caller', 'model.yaml'), 'turns:\n  - finish: {}\n');
  const store = new MemoryStore();
  const host = memoryHost({ cwd: workspace, store });
  const parent = startSkillRun(host, { bundle: 'caller', input: {} });
  const started = Date.now();
  let child = null;
  while (!(child = (await store.listRuns({ skillName: 'sleeper' }))[0])) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 1_000)); // its code step is in flight
  const { abortSkillRun } = await import('./resume-run');
  const { outcome, children } = await abortSkillRun(host, child.parentRunId!, 'not needed');
  assert.equal(outcome.status, 'aborted', 'its driver, in this process, ended it as the request was recorded');
  assert.deepEqual(children, [child.id]);
  const out = await parent;
  assert.equal(out.status, 'aborted');
  assert.match(String(out.error?.message), /aborted on request: not needed/);
  assert.ok(Date.now() - started < 30_000, 'not after the 60 s step');
  const childRun = await store.getRun(child.id);
  assert.equal(childRun?.status, 'aborted');
  assert.match(String(childRun?.error?.message), /its parent run .* was aborted/);
  assert.deepEqual(await store.listResumable(), []);
});
