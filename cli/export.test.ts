// `stagecraft export RUN --out FILE` into a folder a run's code could write (the workspace the user named):
// a link planted at FILE's name must be replaced, not written through — the export holds text the run
// chose (its values), which a shell would run if it landed in ~/.bashrc. The CLI as shipped, the embedded
// store in a fresh data dir.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { BIN, ROOT, runCli } from './testing/spawn-cli';

const root = mkdtempSync(path.join(tmpdir(), 'sc-export-'));
after(() => rmSync(root, { recursive: true, force: true }));

test('export --out over a planted link replaces the link; the file it pointed at is untouched', async () => {
  const env: NodeJS.ProcessEnv = { ...process.env, STAGECRAFT_DATA_DIR: path.join(root, 'data') };
  delete env.DATABASE_URL;
  const ran = await runCli(['run', path.join(ROOT, 'examples/summarize'), '--json'], { env });
  assert.equal(ran.code, 0, ran.err);
  const runId = (JSON.parse(ran.out) as { runId: string }).runId;
  const home = path.join(root, 'home');
  mkdirSync(home);
  writeFileSync(path.join(home, '.bashrc'), 'HOST FILE\n');
  const ws = path.join(root, 'workspace');
  mkdirSync(ws);
  symlinkSync(path.join(home, '.bashrc'), path.join(ws, 'run.json'));
  symlinkSync(path.join(home, 'new-file'), path.join(ws, 'dangling.json'));
  for (const name of ['run.json', 'dangling.json']) {
    const out = await runCli(['export', runId, '--out', name], { env, cwd: ws });
    assert.equal(out.code, 0, out.err);
    assert.equal(lstatSync(path.join(ws, name)).isFile(), true, `${name} is still a link`);
    assert.equal((JSON.parse(readFileSync(path.join(ws, name), 'utf8')) as { run: { id: string } }).run.id, runId);
  }
  assert.equal(readFileSync(path.join(home, '.bashrc'), 'utf8'), 'HOST FILE\n');
  assert.throws(() => lstatSync(path.join(home, 'new-file')), /ENOENT/, 'a file was made where the dangling link pointed');
});

test('import of a FIFO planted at an export’s name is refused at once, not waited on for ever', async () => {
  const env: NodeJS.ProcessEnv = { ...process.env, STAGECRAFT_DATA_DIR: path.join(root, 'data-import') };
  delete env.DATABASE_URL;
  const fifo = path.join(root, 'planted.json');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
  const child = spawn(process.execPath, [BIN, 'import', fifo], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  clearTimeout(timer);
  assert.equal(code, 2, `the import ${code === null ? 'waited on the FIFO until killed' : `exited ${code}`}: ${err}`);
  assert.match(err, /planted\.json: it is not a regular file/);
});

test('export --out counts in words that agree with the number: 1 artifact, not 1 artifacts', async () => {
  const env: NodeJS.ProcessEnv = { ...process.env, STAGECRAFT_DATA_DIR: path.join(root, 'data-count') };
  delete env.DATABASE_URL;
  const ran = await runCli(['run', path.join(ROOT, 'examples/blog_writer'), '--input', path.join(ROOT, 'examples/blog_writer/input.json'), '--json'], { env });
  assert.equal(ran.code, 0, ran.err);
  const r = await runCli(['export', JSON.parse(ran.out).runId, '--out', path.join(root, 'count.json')], { env });
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /\(\d+ events, 1 artifact, skill blog_writer /);
});

// `stagecraft export RUN | stagecraft import -` (two stores, or an export fetched by curl in CI) was
// refused as "the export file - does not exist", where `run --input -` and `fork --value -` read stdin
test('import - reads the export from standard input; an empty one is said so (exit 2)', async () => {
  const from: NodeJS.ProcessEnv = { ...process.env, STAGECRAFT_DATA_DIR: path.join(root, 'data-stdin-from') };
  const to: NodeJS.ProcessEnv = { ...process.env, STAGECRAFT_DATA_DIR: path.join(root, 'data-stdin-to') };
  delete from.DATABASE_URL;
  delete to.DATABASE_URL;
  const ran = await runCli(['run', path.join(ROOT, 'examples/summarize'), '--json'], { env: from });
  assert.equal(ran.code, 0, ran.err);
  const runId = (JSON.parse(ran.out) as { runId: string }).runId;
  const exported = await runCli(['export', runId], { env: from });
  assert.equal(exported.code, 0, exported.err);
  const imported = await runCli(['import', '-', '--json'], { env: to, stdin: exported.out });
  assert.equal(imported.code, 0, imported.err);
  assert.deepEqual((JSON.parse(imported.out) as { imported: { runId: string; status: string }[] }).imported.map((i) => [i.runId, i.status]), [[runId, 'imported']]);
  const empty = await runCli(['import', '-'], { env: to, stdin: '' });
  assert.equal(empty.code, 2, empty.err);
  assert.match(empty.err, /^stagecraft: the export file - \(standard input\) is empty: pipe an export into it \(stagecraft export RUN \| stagecraft import -\), or name the file\./m);
});

// `stagecraft export RUN --out - | gzip` (as `import -` reads standard input) wrote a file named `-` in
// the working folder and printed "exported to -" to the pipe: `--out -` is standard output now, the
// export itself (--json too, as without --out), and no file is made
test('export --out - writes the export to standard output, not to a file named -', async () => {
  const env: NodeJS.ProcessEnv = { ...process.env, STAGECRAFT_DATA_DIR: path.join(root, 'data-out-dash') };
  delete env.DATABASE_URL;
  const ran = await runCli(['run', path.join(ROOT, 'examples/summarize'), '--json'], { env });
  assert.equal(ran.code, 0, ran.err);
  const runId = (JSON.parse(ran.out) as { runId: string }).runId;
  const cwd = mkdtempSync(path.join(root, 'cwd-'));
  for (const argv of [['export', runId, '--out', '-'], ['export', runId, '--out', '-', '--json']]) {
    const r = await runCli(argv, { env, cwd });
    assert.equal(r.code, 0, r.err);
    // the export alone on stdout, as `export RUN` prints it: one JSON document, the run's
    const doc = JSON.parse(r.out) as { format: string; run: { id: string } };
    assert.equal(doc.format, 'stagecraft.run-export', argv.join(' '));
    assert.equal(doc.run.id, runId);
  }
  assert.throws(() => lstatSync(path.join(cwd, '-')), /ENOENT/, 'a file named - was made');
});
