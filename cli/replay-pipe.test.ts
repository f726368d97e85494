// `stagecraft replay --check <(stagecraft export RUN)` said "No file /dev/fd/63": bash's process
// substitution names a pipe, and replay read only regular files. A pipe or a FIFO the user names is now
// read as its contents, and - as standard input (as `import -` reads it); a FIFO no writer holds is said
// to be empty at once, never waited on. The CLI as shipped, on its own embedded store.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { BIN, ROOT, runCli, tempCliEnv, type CliResult } from './testing/spawn-cli';

const { dir, env, cleanup } = tempCliEnv('sc-replay-pipe-');
after(cleanup);

const fixture = path.join(ROOT, 'fixtures/replay/summarize.json');
const IDENTICAL = /^run fixture-summarize \(summarize, version \w+\): identical — /m;

/** the command run by bash, its arguments after it: `$0` is node, `$1` the CLI */
function viaBash(script: string, ...args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script, process.execPath, BIN, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 128, out, err }));
  });
}

test('replay --check <(cat FILE): the export is read from the pipe bash names (/dev/fd/N)', async () => {
  const r = await viaBash('"$0" "$1" replay --check <(cat "$2")', fixture);
  assert.equal(r.code, 0, r.out + r.err);
  assert.match(r.out, IDENTICAL);
  assert.doesNotMatch(r.err, /No file|usage:/);
});

test('replay --check of a FIFO a writer writes into, and of - (standard input)', async () => {
  const fifo = path.join(dir, 'export.json');
  execFileSync('mkfifo', [fifo]);
  // the writer waits in its open for the reader: it is there before the command looks
  const writer = spawn('sh', ['-c', 'cat "$1" > "$0"', fifo, fixture], { stdio: 'ignore' });
  after(() => writer.kill());
  const r = await runCli(['replay', '--check', fifo, '-'], { env, stdin: readFileSync(fixture, 'utf8') });
  assert.equal(r.code, 0, r.out + r.err);
  assert.equal(r.out.match(new RegExp(IDENTICAL.source, 'gm'))?.length, 2, r.out);
});

test('replay --check of a FIFO no writer holds is said to be empty at once (exit 2), not waited on', async () => {
  const fifo = path.join(dir, 'planted.json');
  execFileSync('mkfifo', [fifo]);
  const started = Date.now();
  const r = await viaBash('timeout 60 "$0" "$1" replay --check "$2"', fifo);
  assert.equal(r.code, 2, `${r.code === 124 ? 'waited on the FIFO until killed' : `exited ${r.code}`}: ${r.err}`);
  assert.match(r.err, /planted\.json \(a pipe\) is empty: nothing was written to it/);
  assert.ok(Date.now() - started < 30_000);
  const empty = await viaBash('"$0" "$1" replay --check <(true)');
  assert.equal(empty.code, 2, empty.err);
  assert.match(empty.err, /the export file \/dev\/fd\/\d+ \(a pipe\) is empty/);
});
