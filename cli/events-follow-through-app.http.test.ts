// `stagecraft events RUN --follow` beside the running app (which holds the embedded store): the run the
// app drives is followed through its API as `run DIR` follows one there, printing what the command
// prints on a store — the same lines as `events`, one event view a line with --json — and exiting as
// `run` does for the run's end.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { routes } from '../lib/api/routes';
import { besideApp } from './testing/beside-app';
import { jsonLinesOf } from './testing/spawn-cli';
import { writeOneStepSkill } from './testing/one-step-skill';

const { start, cli, call, note } = besideApp('sc-follow-app-');
const work = mkdtempSync(path.join(tmpdir(), 'sc-follow-app-work-'));
after(() => rmSync(work, { recursive: true, force: true }));

const napper = writeOneStepSkill(work, 'napper', 'export async function step() {\n  await new Promise((r) => setTimeout(r, 800));\n  return { napped: true };\n}\n');
const broken = writeOneStepSkill(work, 'broken', 'export function step() { throw new Error("no luck"); }\n');
const filesOf = (dir: string) => Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(path.join(dir, f), 'utf8')]));
const lastLine = (s: string) => s.trim().split('\n').at(-1)!;

before(start);

test('through the app, --follow prints the run as it goes to its end and exits as run does for that end', async () => {
  for (const [bundle, code, end] of [
    [napper, 0, 'run_completed'],
    [broken, 1, 'run_aborted'],
  ] as const) {
    const { runId } = await call(routes.startRun, { body: { skill: path.basename(bundle), input: {}, files: filesOf(bundle) } });
    const followed = await cli(['events', runId, '--follow']);
    assert.equal(followed.code, code, followed.err);
    assert.ok(followed.err.startsWith(`${note()}\n`), followed.err);
    assert.match(lastLine(followed.out), new RegExp(`^\\s+\\d+  \\S+  ${end} `));
    assert.equal(followed.out, (await cli(['events', runId])).out);
    // --json: one event view a line, each as `events --json` lists it
    const lines = await cli(['events', runId, '--follow', '--json']);
    assert.equal(lines.code, code, lines.err);
    const whole = JSON.parse((await cli(['events', runId, '--json'])).out) as { events: unknown[] };
    assert.deepEqual(jsonLinesOf(lines.out), whole.events);
  }
  const unknown = await cli(['events', 'run_nosuch', '--follow']);
  const events = await cli(['events', 'run_nosuch']);
  assert.equal(unknown.code, events.code);
  assert.equal(lastLine(unknown.err), lastLine(events.err));
});
