// A runs row's blockedBy (GET /api/runs, `runs --json`): its reason cut at BLOCKED_REASON_CHARS, never between an emoji's halves.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BLOCKED_REASON_CHARS, blockedByOf } from './run-index';

test('a reason cut through an emoji leaves no lone surrogate in the JSON the runs list sends', () => {
  const reason = `${'x'.repeat(BLOCKED_REASON_CHARS - 2)}🔒 and more`; // the cut keeps 299 units: the last would be 🔒's high half
  const got = blockedByOf({ stage: 's', call: 1, reason });
  assert.equal(got?.reason, `${'x'.repeat(BLOCKED_REASON_CHARS - 2)}…`);
  assert.ok(!JSON.stringify(got).includes('\\ud'));
  assert.equal(blockedByOf({ stage: 's', call: 1, reason: `${'y'.repeat(400)}` })?.reason, `${'y'.repeat(BLOCKED_REASON_CHARS - 1)}…`);
});
