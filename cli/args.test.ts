// A command's own flags, parsed: a mistyped option is a usage error naming the ones it takes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from './args';
import { UsageError } from '../lib/kernel/errors';

const options = { json: { type: 'boolean' }, limit: { type: 'string' } } as const;

/** the usage error `argv` is met with (zero or one positional) */
function said(argv: string[]): string {
  try {
    parse(argv, options, { min: 0, max: 1, names: 'a run id' });
  } catch (e) {
    assert.ok(e instanceof UsageError);
    return e.message;
  }
  assert.fail(`${argv.join(' ')} was accepted`);
}

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

test('a value missing after a flag that takes one is refused naming the flag', () => {
  assert.throws(() => parse(['x', '--limit'], options, { min: 1, max: 1, names: 'a run id' }), /--limit/);
});

test('a flag without its value, or with one it does not take, is said in plain words, not node\'s', () => {
  assert.equal(said(['x', '--limit']), '--limit needs a value after it (--limit VALUE).');
  assert.equal(said(['--limit', '--json']), '--limit needs a value, and the next word is an option: give --limit its value (one that starts with a dash as --limit=-…).');
  assert.equal(said(['--json=yes']), '--json takes no value: write --json alone.');
  for (const argv of [['--limit'], ['--limit', '--json'], ['--json=1']]) assert.doesNotMatch(said(argv), /Option '|<value>|option argument/);
});

// `runs --stauts failed` and `runs -json` listed the options and left the mistake to be found; `-json`
// was even named as `-j`, a flag nobody typed
test('a mistyped option names the one it is close to; one written with one dash is named as typed', () => {
  assert.equal(said(['--jsno']), 'Unknown option --jsno: this command takes --json, --limit. Did you mean --json?');
  assert.equal(said(['--limt=3']), 'Unknown option --limt: this command takes --json, --limit. Did you mean --limit?');
  assert.equal(said(['-json']), 'Unknown option -json: this command takes --json, --limit. Write --json, with two dashes.');
  assert.equal(said(['-limit', '3']), 'Unknown option -limit: this command takes --json, --limit. Write --limit, with two dashes.');
  assert.equal(said(['--bogus']), 'Unknown option --bogus: this command takes --json, --limit.');
  assert.equal(said(['-z']), 'Unknown option -z: this command takes --json, --limit.');
});

// `run b --input a.json --input b.json` ran on b.json without a word: parseArgs keeps the last
test('a flag given two different values is refused, naming both; the same value twice, or a switch twice, passes', () => {
  assert.equal(said(['--limit', '3', '--limit=5']), '--limit was given twice ("3", then "5"): give it once.');
  assert.equal(parse(['--limit', '3', '--limit', '3', '--json', '--json'], options, { min: 0, max: 0, names: 'nothing' }).values.limit, '3');
  const many = { set: { type: 'string', multiple: true } } as const;
  assert.deepEqual(parse(['--set', 'a=1', '--set', 'b=2'], many, { min: 0, max: 0, names: 'nothing' }).values.set, ['a=1', 'b=2']);
});
