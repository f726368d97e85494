// A mistake in one command is met with that command's usage, so the message stays in view above a
// few lines rather than the whole list; no command (or an unknown one) still gets all of it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { main, USAGE, usageFor } from './main';
import path from 'node:path';
import { ROOT, runCli } from './testing/spawn-cli';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (s: string) => void out.push(s), err: (s: string) => void err.push(s), stdin: async () => '' } };
}

test("a command's usage is its own lines, continuation lines included", () => {
  assert.equal(usageFor('validate'), 'usage:\n  stagecraft validate <bundle|skill.md> [--json]\n\n`stagecraft --help` lists every command.');
  const runs = usageFor('runs').split('\n');
  assert.match(runs[1], /^ {2}stagecraft runs /);
  assert.match(runs[2], /--failed AT/);
  assert.match(runs[4], /a step, or blocked/);
  assert.ok(!usageFor('run').includes('stagecraft runs'), 'run is not runs');
  assert.match(usageFor('run'), /\[--queue\]/);
  assert.equal(usageFor(undefined), USAGE);
  assert.equal(usageFor('bogus'), USAGE);
});

test('validate of a path that is not there: the message, then only validate’s usage (exit 2)', async () => {
  const t = io();
  assert.equal(await main(['validate', '/nonexistent/bundle'], t.io), 2);
  const said = t.err.join('\n');
  assert.match(said, /^stagecraft: \/nonexistent\/bundle does not exist; pass a bundle folder or its skill\.md\n\nusage:\n {2}stagecraft validate /);
  assert.ok(!said.includes('stagecraft replay'), said);
  const none = io();
  assert.equal(await main(['frobnicate'], none.io), 2);
  assert.match(none.err.join('\n'), /stagecraft replay/);
});

// every option a command takes is in its usage line: `fork` and `regress` tell a user to "pass
// --trust" where no sandbox works, and their usage did not say they take it
test("a command's usage names every option it takes", async () => {
  const commands = ['validate', 'run', 'worker', 'resume', 'abort', 'events', 'runs', 'push', 'pull', 'replay', 'fork', 'compare', 'regress', 'export', 'import'];
  for (const cmd of commands) {
    const t = io();
    assert.equal(await main([cmd, '--zzz-not-an-option'], t.io), 2, cmd);
    const said = t.err.join('\n');
    const takes = /this command takes ([^.\n]+)\./.exec(said);
    assert.ok(takes, `${cmd}: ${said}`);
    for (const opt of takes[1].match(/--[a-z-]+/g) ?? []) assert.ok(usageFor(cmd).includes(opt), `${cmd} takes ${opt}, and its usage does not say so:\n${usageFor(cmd)}`);
  }
});

// `stagecraft run --help` was refused as a mistake — "Unknown option --help", exit 2 — and `schema
// --help` printed the schema: asking a command how it is used is answered with its usage, exit 0
test('every command answers --help (and -h) with its own usage on stdout, exit 0', async () => {
  const commands = ['validate', 'run', 'worker', 'resume', 'abort', 'events', 'runs', 'push', 'pull', 'replay', 'fork', 'compare', 'regress', 'export', 'import', 'schema'];
  for (const cmd of commands) {
    const r = await runCli([cmd, '--help']);
    assert.equal(r.code, 0, `${cmd}: ${r.err}`);
    assert.equal(r.out, `${usageFor(cmd)}\n`, cmd);
    assert.equal(r.err, '', cmd);
  }
  const short = await runCli(['fork', 'run_x', '-h']);
  assert.equal(short.code, 0, short.err);
  assert.match(short.out, /^usage:\n {2}stagecraft fork RUN /);
});

// `fork RUN` with no --at reruns a failed run from its failed step (README's "rerun"), and fork's
// usage showed --at as required
test("fork's usage says --at may be left out, and what that does", async () => {
  const fork = (await runCli(['fork', '--help'])).out;
  assert.match(fork, /stagecraft fork RUN \[--at POSITION\] /);
  assert.match(fork, /no --at: a\s+failed or aborted run reruns from its failed step/);
});

// `replay --check` exits 2 when it could not check (README, main.ts); its usage said "exit 0/1"
test("replay's usage names all three exits of --check", async () => {
  const replay = (await runCli(['replay', '--help'])).out;
  assert.match(replay, /--check: exit 0 identical, 1 if any run diverged, else 2 if any\s+could not be checked/);
});

// `schema --jsn` or `schema extra` printed the schema as if nothing was wrong: every other command
// refuses what it does not take
test('schema refuses an option or an argument it does not take (exit 2)', async () => {
  for (const argv of [['schema', '--bogus'], ['schema', 'extra']]) {
    const r = await runCli(argv);
    assert.equal(r.code, 2, argv.join(' '));
    assert.equal(r.out, '');
    assert.match(r.err, /^stagecraft: (Unknown option --bogus: this command takes no options|expected no arguments, got extra)\.?\n\nusage:\n {2}stagecraft schema /);
  }
  assert.equal((await runCli(['schema'])).code, 0);
});

// `stagecraft --version` was an unknown command (exit 2, the whole usage on stderr)
test('--version (and -V) prints the installed version on stdout, exit 0', async () => {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  for (const flag of ['--version', '-V']) {
    const r = await runCli([flag]);
    assert.deepEqual(r, { code: 0, out: `stagecraft ${version}\n`, err: '' }, flag);
  }
  const extra = await runCli(['--version', 'extra']);
  assert.equal(extra.code, 2, extra.err);
  assert.match(extra.err, /^stagecraft: expected no arguments, got extra/);
});

// `stagecraft replays RUN` and `stagecraft version` met the whole usage under 'unknown command' alone
test('a mistyped command names the one it is close to; a word near none names none', async () => {
  const said = async (argv: string[]) => {
    const t = io();
    assert.equal(await main(argv, t.io), 2, argv.join(' '));
    return t.err.join('\n').split('\n')[0];
  };
  assert.equal(await said(['replays', 'run_x']), 'stagecraft: unknown command "replays": did you mean `stagecraft replay`?');
  assert.equal(await said(['abrot']), 'stagecraft: unknown command "abrot": did you mean `stagecraft abort`?');
  assert.equal(await said(['exprot']), 'stagecraft: unknown command "exprot": did you mean `stagecraft export`?');
  assert.match(await said(['version']), /^stagecraft: unknown command "version": `stagecraft --version` prints the installed version; `stagecraft versions SKILL` lists/);
  assert.equal(await said(['frobnicate']), 'stagecraft: unknown command "frobnicate"');
  assert.equal(await said(['ls']), 'stagecraft: unknown command "ls"');
  // a dashed word in a command's place is a top-level flag mistyped: `--verison` met no suggestion
  assert.equal(await said(['--verison']), 'stagecraft: unknown command "--verison": did you mean `stagecraft --version`?');
  assert.equal(await said(['--hlep']), 'stagecraft: unknown command "--hlep": did you mean `stagecraft --help`?');
  assert.equal(await said(['-version']), 'stagecraft: unknown command "-version": did you mean `stagecraft --version`?');
  assert.equal(await said(['--frobnicate']), 'stagecraft: unknown command "--frobnicate"');
});

// the help named six of the commands that go through the app holding the embedded store (README,
// "Beside the running app"), so `run DIR` or `fork` beside `npm start` looked as if it would fail
test('the help names every command that goes through the app holding the store, and the one that cannot', () => {
  const said = USAGE.replace(/\s+/g, ' ');
  assert.ok(said.includes('while the app holds that one, runs, events, abort, export, compare and versions go through the app.'), said);
  const more = said.slice(said.indexOf('go through the app.'));
  for (const cmd of ['run DIR', 'fork', 'replay', 'resume RUN', 'push', 'pull', 'import', 'regress']) assert.ok(more.includes(cmd), `${cmd}: ${more}`);
  assert.match(more, /worker cannot/);
});

// README's command-line block left out flags the commands take (`validate --json`, `export --json`,
// `regress --trust`, fork's --value/--version/--skill/--model, …): a reader of the README alone, as
// in CI, could not know they exist
test("README's command-line block names every option each command takes", async () => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('## The command line');
  const block = readme.slice(readme.indexOf('```sh', start), readme.indexOf('```\n', readme.indexOf('```sh', start) + 5));
  const commands = ['validate', 'run', 'worker', 'resume', 'abort', 'events', 'runs', 'push', 'pull', 'versions', 'replay', 'fork', 'compare', 'regress', 'export', 'import'];
  for (const cmd of commands) {
    // the command's lines: those that start with it, and the comment lines that continue one
    const lines: string[] = [];
    let mine = false;
    for (const line of block.split('\n')) {
      if (line.startsWith('npx stagecraft ')) mine = line.startsWith(`npx stagecraft ${cmd} `);
      if (mine) lines.push(line);
    }
    assert.ok(lines.length, `README's block has no line for ${cmd}`);
    const t = io();
    assert.equal(await main([cmd, '--zzz-not-an-option'], t.io), 2, cmd);
    const takes = /this command takes ([^.\n]+)\./.exec(t.err.join('\n'));
    for (const opt of takes?.[1].match(/--[a-z-]+/g) ?? []) assert.ok(lines.join('\n').includes(opt), `${cmd} takes ${opt}, and README's command-line block does not say so:\n${lines.join('\n')}`);
  }
});
