// `stagecraft run … --json | jq` in CI: a pipe holds 64 KB, and a reader that had not taken them all
// by the time the command ended got the first 64 KB and nothing more — a cut JSON object, exit 0 —
// since the command exited without waiting for its output to leave. It now waits for it (a reader
// gone still drops it at once: closed-pipe.test.ts).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { BIN, ROOT, tempCliEnv } from './testing/spawn-cli';
import { writeOneStepSkill } from './testing/one-step-skill';

const t = tempCliEnv('sc-slow-reader-');
after(t.cleanup);
const bundle = writeOneStepSkill(t.dir, 'wide', `export function step() { return Array.from({ length: 3000 }, (_, i) => 'row ' + i + ' ' + 'x'.repeat(90)); }\n`, 'rows');

test('run --json read by a reader slower than the command gets the whole object', async () => {
  // the reader takes nothing until the command has ended (jq still starting, a busy runner) — or, as the
  // command now waits for it, for 4 s — then reads it all
  const script = `cd "$3" && mkfifo out && { "$0" "$1" run "$2" --json > out & pid=$!; exec 3<out;
    for i in $(seq 40); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done; cat <&3; wait $pid; }`;
  const { out, err } = await new Promise<{ out: string; err: string }>((resolve, reject) =>
    execFile('bash', ['-c', script, process.execPath, BIN, bundle, t.dir], { cwd: ROOT, env: t.env, maxBuffer: 64 << 20 }, (e, out, err) => (e ? reject(Object.assign(e, { err })) : resolve({ out, err }))),
  );
  assert.ok(out.length > 200_000, `${out.length} bytes; ${err}`);
  const summary = JSON.parse(out) as { status: string; output: { rows: string[] } };
  assert.equal(summary.status, 'completed');
  assert.equal(summary.output.rows.length, 3000);
});
