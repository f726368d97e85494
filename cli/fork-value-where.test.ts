// `stagecraft fork RUN --value FILE` with a value its schema refuses said which field (`/paragraphs/1
// must be string`) but not where in FILE, where `run --input FILE` says `input.json:2:12: /topic must
// be string`. Each schema error is now also at FILE:line:col of the --value text (stdin for `-`), a
// model turn's finish under /finish, text and --json alike; exit 2 and nothing run, as before.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli, tempCliEnv } from './testing/spawn-cli';

const { dir, env, cleanup } = tempCliEnv('sc-fork-value-where-');
after(cleanup);

let runId: string;
before(async () => {
  const ran = await runCli(['run', 'examples/summarize', '--input', 'examples/summarize/input.json', '--json'], { env });
  assert.equal(ran.code, 0, ran.err);
  runId = (JSON.parse(ran.out) as { runId: string }).runId;
});

const artifact = path.join(dir, 'artifact.json');
writeFileSync(artifact, '{\n  "paragraphs": [\n    "Shorter.",\n    3\n  ]\n}\n');
const turn = '{\n  "text": "Done.",\n  "finish": {\n    "paragraphs": "one"\n  }\n}\n';

test('a finish artifact its schema refuses is located in the --value file, text and --json', async () => {
  const r = await runCli(['fork', runId, '--at', '__post__', '--value', artifact], { env });
  assert.equal(r.code, 2, r.err);
  assert.ok(r.err.includes('does not satisfy its schema: /paragraphs/1 must be string. Nothing was run.'), r.err);
  assert.ok(r.err.includes(`\n${artifact}:4:5: /paragraphs/1 must be string`), r.err);
  const json = await runCli(['fork', runId, '--at', '__post__', '--value', artifact, '--json'], { env });
  assert.equal(json.code, 2, json.err);
  const { error } = JSON.parse(json.out) as { error: { code: string; message: string } };
  assert.equal(error.code, 'fork_edit_invalid');
  assert.ok(error.message.endsWith(`\n${artifact}:4:5: /paragraphs/1 must be string`), error.message);
});

test("a model turn's finish refused by its phase's contract is located under /finish, read from stdin", async () => {
  const r = await runCli(['fork', runId, '--at', 'summarize/r2/model', '--value', '-'], { env, stdin: turn });
  assert.equal(r.code, 2, r.err);
  assert.ok(r.err.includes('\nstdin:4:19: /finish/paragraphs must be array'), r.err);
  const runs = JSON.parse((await runCli(['runs', '--json'], { env })).out) as { runs: unknown[] };
  assert.equal(runs.runs.length, 1, 'nothing was run');
});
