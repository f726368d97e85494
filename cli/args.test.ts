// A command's own flags, parsed: a mistyped option is a usage error naming the ones it takes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from './args';
import { UsageError } from '../lib/kernel/errors';

const options = { json: { type: 'boolean' }, limit: { type: 'string' } } as const;

test('an unknown option names itself and the options the command takes, not node\'s words about `--`', () => {
  assert.throws(
    () => parse(['--bogus', 'x'], options, { min: 1, max: 1, names: 'a run id' }),
    (e: Error) => {
      assert.ok(e instanceof UsageError);
      assert.equal(e.message, 'Unknown option --bogus: this command takes --json, --limit.');
      return true;
    },
  );
  assert.throws(() => parse(['-z'], {}, { min: 0, max: 0, names: 'nothing' }), /^UsageError: Unknown option -z: this command takes no options\.$|Unknown option -z: this command takes no options\./);
});

test('other refusals keep their words: a value missing after a flag that takes one', () => {
  assert.throws(() => parse(['x', '--limit'], options, { min: 1, max: 1, names: 'a run id' }), /--limit/);
});
