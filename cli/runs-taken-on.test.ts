// `stagecraft runs --attention` kept listing a failed run after a fork of it (the skill fixed) had
// completed. That run no longer needs attention (the runs list's one rule, lib/store/run-index.ts):
// --attention leaves it out, its row keeps its status and says, in a TAKEN ON column, which fork took
// it on. A fork that failed again does not take it on (and needs attention itself).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli, ROOT, tempCliEnv } from './testing/spawn-cli';

const { dir: root, env, cleanup } = tempCliEnv('sc-runs-taken-on-');
after(cleanup);

type Row = { runId: string; status: string; needsAttention: boolean; takenOnBy?: string | null };

test('a failed run a fork took on and completed leaves `runs --attention`; its row says which run took it on', async () => {
  const bundle = path.join(root, 'blog_writer');
  cpSync(path.join(ROOT, 'examples/blog_writer'), bundle, { recursive: true });
  const code = path.join(bundle, 'rendering.py');
  const good = readFileSync(code, 'utf8');
  writeFileSync(code, good.replace('value["body"]))', 'value["text"]))'));
  const ran = async (...argv: string[]) => {
    const r = await runCli(argv, { env });
    const id = /^run (run_\w+): (?:aborted|completed)$/m.exec(r.out)?.[1];
    assert.ok(id, r.out + r.err);
    return id;
  };
  const attention = async () => {
    const r = await runCli(['runs', '--attention', '--json'], { env });
    assert.equal(r.code, 0, r.err);
    return (JSON.parse(r.out) as { runs: Row[] }).runs.map((x) => x.runId).sort();
  };
  const failed = await ran('run', bundle, '--input', path.join(bundle, 'input.json'));
  const again = await ran('fork', failed);
  assert.deepEqual(await attention(), [failed, again].sort());

  writeFileSync(code, good);
  const fixed = await ran('fork', failed, '--skill', bundle);
  assert.deepEqual(await attention(), [again]);
  const all = await runCli(['runs', '--json'], { env });
  const row = (JSON.parse(all.out) as { runs: Row[] }).runs.find((x) => x.runId === failed);
  assert.deepEqual([row?.status, row?.needsAttention, row?.takenOnBy], ['aborted', false, fixed]);
  const text = await runCli(['runs'], { env });
  assert.match(text.err, /\bTAKEN ON\b/);
  assert.match(text.out, new RegExp(`^${failed}\\s+aborted\\s.*\\bby ${fixed}, completed`, 'm'));
});
