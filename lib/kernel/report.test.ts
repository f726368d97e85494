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
      step('stage', { status: 'failed', phase: 'draft', rung: 'post-tool', stage: 'budget', capability: 'budget', round: 2, output: { error: { message: 'boom' } } }),
      ev('run_failed', { error: { code: 'stage_crashed', message: 'stage budget crashed' } }),
    ],
    expect: { outcome: 'failed', block_reason: 'stage budget crashed', failed_stage: { phase: 'draft', rung: 'post-tool', stage: 'budget', capability: 'budget', round: 2, error: 'boom' } },
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
  assert.deepEqual(r.step_counts, { model: 2, tool: 1, stage: 1, processor: 2, processor_by_status: { ok: 1, skipped: 1 } });
});

test('x-derived marks machine-derived fields of an output schema', () => {
  const schema = { type: 'object', properties: { summary: { type: 'string' }, outcome: { 'x-derived': 'outcome' }, changed: { 'x-derived': 'changed_paths' }, block_reason: { 'x-derived': true } } };
  assert.deepEqual(derivedFields(schema), { outcome: 'outcome', changed: 'changed_paths', block_reason: 'block_reason' });
});
