// What a user capability printed when it returned used to be dropped: `stagecraft events RUN` showed
// its stage's line and nothing of its console.log()s. Its lines are now under the stage's event line,
// as a code step's are (each indented, the bundle folder cut from them); `--json` carries them as
// recorded (`stdout`, `stderr`); a capability that printed nothing carries neither, and a replay whose
// capability prints another time each run is identical.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli, tempCliEnv } from './testing/spawn-cli';

const t = tempCliEnv('sc-cap-output-');
after(t.cleanup);

/** a bundle whose model finishes at once, with two post-model capabilities of ./caps.mjs: `loud` and `quiet` */
function capsSkill(name: string, loud: string): string {
  const bundle = path.join(t.dir, name);
  mkdirSync(bundle);
  writeFileSync(
    path.join(bundle, 'skill.md'),
    `---\nname: ${name}\nentry: greet\ngraph:\n  greet: []\noutput_schema: { type: object }\ncapabilities:\n  - { name: loud, stage: post-model, uses: ./caps.mjs#loud }\n  - { name: quiet, stage: post-model, uses: ./caps.mjs#quiet }\n---\nGreet.\n`,
  );
  writeFileSync(path.join(bundle, 'caps.mjs'), `export function loud(ctx) {\n${loud}\n}\nexport function quiet() {}\n`);
  writeFileSync(path.join(bundle, 'model.yaml'), 'turns:\n  - phase: greet\n    finish: { greeting: hi }\n');
  return bundle;
}
// (import.meta spelled so that the test's own build leaves the capability's text alone)
const chatty = capsSkill('chatty', `  console.log('round ' + ctx.round);\n  console.log('from ' + new URL(${'import.meta'}.url).pathname);\n  console.error('careful');`);
const clock = capsSkill('clock', "  console.log('at ' + Date.now() + ' ' + Math.random());");

type Events = { events: { type: string; data: Record<string, unknown> }[] };
async function runOf(dir: string): Promise<string> {
  const r = await runCli(['run', dir, '--json'], { env: t.env });
  assert.equal(r.code, 0, r.out + r.err);
  return (JSON.parse(r.out) as { runId: string }).runId;
}
const stageOf = (ev: Events, name: string) => ev.events.find((e) => e.type === 'step_completed' && e.data.kind === 'stage' && e.data.stage === name)!.data;

test("events: a capability's printed lines are under its stage's line, indented, the bundle folder cut from them", async () => {
  const runId = await runOf(chatty);
  const r = await runCli(['events', runId], { env: t.env });
  assert.equal(r.code, 0, r.err);
  const lines = r.out.split('\n');
  const at = lines.findIndex((l) => /step_completed +greet\/r1\/post-model\/loud/.test(l));
  assert.ok(at >= 0, r.out);
  assert.deepEqual(lines.slice(at + 1, at + 6), ['         stdout:', '           round 1', '           from caps.mjs', '         stderr:', '           careful']);
  assert.ok(/step_completed +greet\/r1\/post-model\/quiet/.test(lines[at + 6]), `the quiet stage's line follows, with nothing under it: ${r.out}`);
  assert.ok(!r.out.includes(t.dataDir), 'the folder the run executed from is cut from the printed lines');
});

test('events --json: the stage carries stdout and stderr as recorded; a capability that printed nothing carries neither', async () => {
  const r = await runCli(['events', await runOf(chatty), '--json'], { env: t.env });
  assert.equal(r.code, 0, r.err);
  const ev = JSON.parse(r.out) as Events;
  const loud = stageOf(ev, 'loud');
  assert.match(String(loud.stdout), /^round 1\nfrom \/.+\/caps\.mjs\n$/);
  assert.equal(loud.stderr, 'careful\n');
  const quiet = stageOf(ev, 'quiet');
  assert.ok(!('stdout' in quiet) && !('stderr' in quiet), JSON.stringify(quiet));
});

test('replay --check of a run whose capability prints another time each run: identical (exit 0), the replay recording what it printed', async () => {
  const runId = await runOf(clock);
  const r = await runCli(['replay', '--check', runId, '--json'], { env: t.env });
  assert.equal(r.code, 0, r.out + r.err);
  const v = JSON.parse(r.out) as { identical: boolean; replayRunId: string };
  assert.equal(v.identical, true, r.out);
  const printed = async (id: string) => stageOf(JSON.parse((await runCli(['events', id, '--json'], { env: t.env })).out) as Events, 'loud').stdout;
  const a = await printed(runId);
  const b = await printed(v.replayRunId);
  assert.match(String(a), /^at \d+ /);
  assert.match(String(b), /^at \d+ /);
  assert.notEqual(a, b);
});
