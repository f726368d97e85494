// `stagecraft compare` of a fork of the run input (`fork RUN --at input --value …`) beside its parent
// has the row for the edited input, as a fork of `__post__/1/input` has (753085f): a '~ input  input,
// edited at the fork: …' line with A's and B's value under it, before the step rows; `--json` carries
// it as forkEdit. The rows, their count and the first divergence are the comparison's, as before.
// On the embedded store.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, tempCliEnv } from './testing/spawn-cli';

const { env, cleanup } = tempCliEnv('sc-compare-fork-input-');
after(cleanup);

test("compare of a fork of the run input with its parent: a row for the edited input, A's value beside B's", async () => {
  const ran = await runCli(['run', 'examples/summarize', '--input', 'examples/summarize/input.json', '--json'], { env });
  assert.equal(ran.code, 0, ran.out + ran.err);
  const parent = JSON.parse(ran.out).runId as string;
  const forked = await runCli(['fork', parent, '--at', 'input', '--set', 'note="edited input"', '--json'], { env });
  assert.equal(forked.code, 0, forked.out + forked.err);
  const fork = JSON.parse(forked.out).runId as string;

  const json = JSON.parse((await runCli(['compare', parent, fork, '--json'], { env })).out);
  assert.deepEqual(json.forkEdit, { position: 'input', side: 'B', a: { path: 'report.txt' }, b: { path: 'report.txt', note: 'edited input' } });
  const text = await runCli(['compare', parent, fork], { env });
  assert.equal(text.code, 0, text.err);
  assert.match(text.out, /\n~ input +input, edited at the fork: B's value is the fork's edit, A's what A recorded there\n {4}A: \{"path":"report\.txt"\}\n {4}B: \{"path":"report\.txt","note":"edited input"\}\n {2}summarize\/r1\/model +ok /);
  // the rows and the verdict are the comparison's: the same steps, one by one
  assert.deepEqual(json.rows.map((r: { position: string; change: string }) => `${r.position} ${r.change}`), ['summarize/r1/model same', 'summarize/r1/tool/0 same', 'summarize/r2/model same', '__post__/0 same']);
  assert.equal(json.identical, true);
});
