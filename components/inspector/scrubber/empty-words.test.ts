// The scrubber's words for an empty transcript or workspace: "yet" while the run goes on, and no
// "yet" at its end (before, an aborted run's last event read "No messages yet.").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyWords } from './empty-words';

test('"yet" while the run goes on after the event; at its end, that nothing came and why', () => {
  assert.deepEqual(emptyWords({ status: 'running', visit: null }), { transcript: 'No messages yet.', workspace: 'No artifacts yet.' });
  const ended = emptyWords({ status: 'aborted', visit: 'work#50' });
  assert.equal(ended.transcript, 'No messages: visit work#50 ended before any model turn.');
  assert.doesNotMatch(ended.workspace, /yet/);
  assert.doesNotMatch(emptyWords({ status: 'completed', visit: null }).transcript, /yet/);
});
