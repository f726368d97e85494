// The generated columns read in TypeScript: the runs run-index.db.test.ts records on Postgres, read
// here to the same failed_at and needs_attention the SQL functions give them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../../kernel/json';
import type { RunRecord } from '../../kernel/ports';
import { runFailedAt, runNeedsAttention } from './run-columns';

const report = (outcome: string, extra: JsonObject = {}): JsonObject => ({ outcome, block_reason: null, failed_stage: null, ...extra });
type Case = [string, Pick<RunRecord, 'status' | 'report' | 'error'>, string | null, boolean];

const CASES: Case[] = [
  ['succeeded', { status: 'completed', report: report('succeeded'), error: null }, null, false],
  ['blocked by a denial', { status: 'completed', report: report('blocked'), error: null }, null, true],
  ['a stage crashed', { status: 'failed', report: report('failed', { failed_stage: { capability: 'lint', stage: 'check' } }), error: { code: 'stage_crashed', message: 'x' } }, 'lint/check', true],
  ['a postprocessor step', { status: 'aborted', report: report('blocked'), error: { code: 'workflow_aborted', message: 'x', phase: '__post__', step: 2, stepType: 'validate' } }, '__post__/2', true],
  ['a preprocessor step', { status: 'aborted', report: report('blocked'), error: { code: 'workflow_aborted', message: 'x', phase: 'draft', step: 0, stepType: 'python' } }, 'draft/pre/0', true],
  ['the report names its failed step', { status: 'aborted', report: report('blocked', { failed_step: { position: 'draft#2/pre/1' } }), error: { message: 'x', phase: 'draft', step: 1, stepType: 'python' } }, 'draft#2/pre/1', true],
  ['the error names its stage', { status: 'failed', report: report('failed'), error: { message: 'x', capability: 'lint', stage: 'check' } }, 'lint/check', true],
  ['a contract stopped the phase', { status: 'failed', report: report('failed'), error: { code: 'output_invalid', message: 'x', phase: 'draft' } }, 'draft', true],
  ['a model script with no turn left', { status: 'failed', report: report('failed'), error: { message: 'x', phase: 'draft', position: 'draft/r3/model' } }, 'draft/r3/model', true],
  ['a user asked for the abort', { status: 'aborted', report: report('blocked'), error: { message: 'aborted on request: no', requestedBy: 'user', via: 'app' } }, null, false],
  ['a caller asked, as the report says', { status: 'aborted', report: report('blocked', { aborted_by: { by: 'request' } }), error: { message: 'stale', phase: 'draft' } }, null, true],
  ['an abort on request, in its message', { status: 'aborted', report: null, error: { message: 'aborted on request: stale', phase: 'draft' } }, null, true],
  ['failed before any report', { status: 'failed', report: null, error: null }, null, true],
  ['running', { status: 'running', report: null, error: null }, null, false],
];

for (const [name, run, failedAt, needsAttention] of CASES) {
  test(`${name}: failed_at ${failedAt}, needs_attention ${needsAttention}`, () => {
    assert.equal(runFailedAt(run), failedAt);
    assert.equal(runNeedsAttention(run), needsAttention);
  });
}
