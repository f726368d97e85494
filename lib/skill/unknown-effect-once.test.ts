// A capability asking for an effect Stagecraft does not know (`net.fetch`) is one error, `unknown_effect`,
// with the known effects. Before, a second finding at the same place, `effect_not_granted`, said to add
// `net.fetch` to permissions.effects — where it would be the same unknown_effect error again.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { show, validate, withLines } from './fixtures/helpers';

test('an unknown effect on a capability is unknown_effect alone, never "add it to permissions.effects"', () => {
  const ds = validate(withLines('capabilities:\n  - name: fetcher\n    stage: prompt-assembly\n    uses: ./caps.ts#addRules\n    effects: [prompt.write, net.fetch]\n'));
  const at = ds.filter((d) => d.path === 'capabilities[0].effects[1]');
  assert.deepEqual(at.map((d) => d.rule), ['unknown_effect'], show(ds));
  assert.match(at[0].message, /Unknown effect `net\.fetch`.*Known effects: /);
  // a known effect left ungranted is still said so
  assert.ok(ds.some((d) => d.rule === 'effect_not_granted' && d.path === 'capabilities[0].effects[0]'), show(ds));
});
