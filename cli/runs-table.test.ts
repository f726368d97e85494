// `stagecraft runs` prints a table: a header row (on stderr, so stdout stays a line per run), then a
// line per run, each column as wide as its widest value — it printed no header and ragged columns (a
// longer skill name pushed the rest along). --json is untouched.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, tempCliEnv } from './testing/spawn-cli';
import { columns } from './print';

const { env, cleanup } = tempCliEnv('sc-runs-table-');
after(cleanup);

test('columns pads each cell to its column\'s widest, with nothing trailing', () => {
  assert.deepEqual(columns([['A', 'BB', 'C'], ['aaa', 'b', ''], ['a', 'bbbb', 'c']]), ['A    BB    C', 'aaa  b', 'a    bbbb  c']);
});

test('runs: a header row, and the columns line up whatever the skill names\' lengths', async () => {
  for (const skill of ['summarize', 'code_review']) {
    const r = await runCli(['run', `examples/${skill}`, '--input', `examples/${skill}/input.json`], { env });
    assert.equal(r.code, 0, r.err);
  }
  const r = await runCli(['runs'], { env });
  assert.equal(r.code, 0, r.err);
  const lines = [r.err.split('\n').find((l) => l.startsWith('RUN ')) ?? '', ...r.out.trimEnd().split('\n')];
  assert.equal(lines.length, 3, r.out);
  assert.match(lines[0], /^RUN\s+STATUS\s+SKILL\s+CREATED\s+OUTCOME$/);
  assert.match(lines[1], /^run_\w+\s+completed\s/, 'stdout starts with a run');
  for (const word of ['STATUS', 'CREATED', 'OUTCOME']) {
    const at = lines[0].indexOf(word);
    for (const line of lines.slice(1)) assert.match(line.slice(at - 2, at), /^ {2}$/, `${word} column: ${r.out}`);
    for (const line of lines.slice(1)) assert.notEqual(line[at], ' ', `${word} column: ${r.out}`);
  }
  const json = await runCli(['runs', '--json'], { env });
  assert.equal(JSON.parse(json.out).runs.length, 2);
});
