/**
 * Test helpers shared by the model adapters' tests: a minimal positioned
 * request, and an assertion that a promise fails with a given ModelError code.
 */
import assert from 'node:assert/strict';
import { ModelError } from '../kernel/errors';
import type { PositionedRequest } from './visits';

export const req = (phase: string, round: number, extra: Partial<PositionedRequest> = {}): PositionedRequest => ({
  runId: 'run-1',
  phase,
  round,
  messages: [],
  tools: [],
  responseFormat: null,
  ...extra,
});

export async function rejectsWith(p: Promise<unknown>, code: string, pattern?: RegExp): Promise<ModelError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ModelError, `expected a ModelError, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    if (pattern) assert.match(e.message, pattern);
    return e;
  }
  assert.fail(`expected ${code}`);
}
