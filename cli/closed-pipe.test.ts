// `stagecraft run … | head -3`: the reader goes away before the command has printed all it has. The
// command crashed there — node's unhandled EPIPE, a stack trace on stderr and exit 1 — for a run that
// had completed. It now drops what it can no longer print and exits as the run ended (0 here).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { BIN, ROOT, tempCliEnv } from './testing/spawn-cli';

const { env, cleanup } = tempCliEnv('sc-closed-pipe-');
after(cleanup);

/** the command with its stdout's reader gone from the start */
function withStdoutClosed(argv: string[]): Promise<{ code: number | null; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...argv], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, err }));
  });
}

test('a run whose output nobody reads any more ends as the run did, without a stack trace', async () => {
  const r = await withStdoutClosed(['run', 'examples/summarize', '--input', 'examples/summarize/input.json']);
  assert.doesNotMatch(r.err, /EPIPE|Unhandled 'error'|\n\s+at /, r.err);
  assert.equal(r.code, 0, r.err);
});
