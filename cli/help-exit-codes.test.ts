// `stagecraft --help`'s exit codes name every code a CI step branches on: `regress` exits 1 when a past
// run would change, and `replay --check` 2 when a run could not be checked. Before, the help named
// neither (only the README did): `regress` read as exit 0 whatever it found.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { USAGE } from './main';

test('the help says regress exits 1 on a change and replay --check 2 for a run not checked', () => {
  assert.match(USAGE, /Exit codes: 0 done; 1 a run failed or was aborted, validate found errors, or replay --check\nsaw a divergence;/);
  assert.match(USAGE, /\nregress exits 1 when a past run would change; replay --check exits 2 when a run could not\nbe checked/);
});
