// What a code step printed when it returned used to be dropped: `stagecraft events RUN` showed the
// step and its result, never its print()s. Its lines are now under the step's event line (each
// indented, the bundle folder cut from them), `--json` carries them as recorded (`stdout`,
// `stderr`), and a terminal is shown the controls in them, never sent them.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { runCli, BIN, ROOT, tempCliEnv } from './testing/spawn-cli';
import { writeOneStepSkill } from './testing/one-step-skill';

const t = tempCliEnv('sc-step-output-');
after(t.cleanup);
const bundle = writeOneStepSkill(
  t.dir,
  'chatty',
  `export function step(v) {
  console.log('rows: 3');
  console.log('from ' + new URL(${'import.meta'}.url).pathname);
  console.error('careful \\x1b]0;retitled\\x07\\x1b[2J');
  return { counted: 3 };
}
`,
);
const clock = writeOneStepSkill(t.dir, 'clock', "export function step() { console.log('at ' + Date.now() + ' ' + Math.random()); return { counted: 1 }; }\n");
const colours = writeOneStepSkill(
  t.dir,
  'colours',
  "export function step() { console.log('\\x1b[1;31mFAIL\\x1b[0m 2 of 9 \\x1b[32mok\\x1b[m'); console.log('50%\\r\\x1b[2K100%\\x1b[?25h'); return { counted: 9 }; }\n",
);
const quiet = writeOneStepSkill(t.dir, 'quiet', 'export function step() { return { counted: 0 }; }\n');
const hasScript = spawnSync('script', ['--version']).status === 0;

async function runOf(dir: string): Promise<string> {
  const r = await runCli(['run', dir, '--json'], { env: t.env });
  assert.equal(r.code, 0, r.out + r.err);
  return (JSON.parse(r.out) as { runId: string }).runId;
}

test("events: a code step's printed lines are under its event, indented, the bundle folder cut from them", async () => {
  const runId = await runOf(bundle);
  const r = await runCli(['events', runId], { env: t.env });
  assert.equal(r.code, 0, r.err);
  const lines = r.out.split('\n');
  const at = lines.findIndex((l) => /step_completed +__post__\/0 node ok: merged counted/.test(l));
  assert.ok(at >= 0, r.out);
  assert.deepEqual(lines.slice(at + 1, at + 6), [
    '         stdout:',
    '           rows: 3',
    '           from step.mjs',
    '         stderr:',
    // readable, as the run page shows it, to a pipe too: the screen clear (a CSI sequence) dropped, the title's ESC and BEL shown as text
    '           careful \\x1b]0;retitled\\x07',
  ]);
  assert.ok(!r.out.includes(t.dataDir), 'the folder the run executed from is cut from the printed lines');
});

test("events: a step's colour codes and cursor moves are dropped from its printed lines, other controls shown as text; --json keeps the bytes", async () => {
  const runId = await runOf(colours);
  const r = await runCli(['events', runId], { env: t.env });
  assert.equal(r.code, 0, r.err);
  const lines = r.out.split('\n');
  const at = lines.findIndex((l) => /step_completed +__post__\/0 node ok/.test(l));
  assert.deepEqual(lines.slice(at + 1, at + 4), ['         stdout:', '           FAIL 2 of 9 ok', '           50%\\x0d100%']);
  assert.ok(!/[\x00-\x08\x0b-\x1f\x7f]/.test(r.out), JSON.stringify(r.out));
  const j = await runCli(['events', runId, '--json'], { env: t.env });
  const step = (JSON.parse(j.out) as { events: { type: string; data: Record<string, unknown> }[] }).events.find((e) => e.type === 'step_completed' && e.data.kind === 'processor')!;
  assert.equal(step.data.stdout, '\x1b[1;31mFAIL\x1b[0m 2 of 9 \x1b[32mok\x1b[m\n50%\r\x1b[2K100%\x1b[?25h\n');
});

test('events --json: the step carries stdout and stderr as recorded; a step that printed nothing carries neither', async () => {
  const runId = await runOf(bundle);
  const r = await runCli(['events', runId, '--json'], { env: t.env });
  assert.equal(r.code, 0, r.err);
  const step = (JSON.parse(r.out) as { events: { type: string; data: Record<string, unknown> }[] }).events.find((e) => e.type === 'step_completed' && e.data.kind === 'processor')!;
  // as recorded: the folder the run executed from (a copy of the bundle under the data dir) whole
  assert.match(String(step.data.stdout), /^rows: 3\nfrom \/.+\/step\.mjs\n$/);
  assert.equal(step.data.stderr, 'careful \x1b]0;retitled\x07\x1b[2J\n');
  const q = await runCli(['events', await runOf(quiet), '--json'], { env: t.env });
  const quietStep = (JSON.parse(q.out) as { events: { type: string; data: Record<string, unknown> }[] }).events.find((e) => e.type === 'step_completed' && e.data.kind === 'processor')!;
  assert.ok(!('stdout' in quietStep.data) && !('stderr' in quietStep.data), JSON.stringify(quietStep.data));
  const text = await runCli(['events', await runOf(quiet)], { env: t.env });
  assert.ok(!/stdout:|stderr:/.test(text.out), text.out);
});

test("events on a terminal: a step's printed escape sequences are shown, not obeyed", { skip: hasScript ? false : 'no `script` (util-linux) for a pty' }, async () => {
  const runId = await runOf(bundle);
  const r = spawnSync('script', ['-qec', `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} events ${runId}`, '/dev/null'], { encoding: 'utf8', env: t.env, cwd: ROOT });
  assert.match(r.stdout, /stderr:/, r.stdout + r.stderr);
  assert.ok(!/[\x1b\x07]/.test(r.stdout), `an ESC or BEL reached the terminal: ${JSON.stringify(r.stdout)}`);
  assert.ok(r.stdout.includes('careful \\x1b]0;retitled\\x07'), r.stdout);
});

test('replay --check of a run whose step prints another time each run: identical (exit 0), the replay recording what it printed', async () => {
  const runId = await runOf(clock);
  const r = await runCli(['replay', '--check', runId, '--json'], { env: t.env });
  assert.equal(r.code, 0, r.out + r.err);
  const v = JSON.parse(r.out) as { identical: boolean; replayRunId: string };
  assert.equal(v.identical, true, r.out);
  // one command at a time: the embedded store is one process's
  const printed = async (id: string) => {
    const ev = JSON.parse((await runCli(['events', id, '--json'], { env: t.env })).out) as { events: { type: string; data: Record<string, unknown> }[] };
    return ev.events.find((e) => e.type === 'step_completed' && e.data.kind === 'processor')!.data.stdout;
  };
  const a = await printed(runId);
  const b = await printed(v.replayRunId);
  assert.match(String(a), /^at \d+ /);
  assert.match(String(b), /^at \d+ /);
  assert.notEqual(a, b);
});
