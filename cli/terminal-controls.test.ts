// What the CLI prints to a terminal holds a run's own text — a step's error message and the tail of its
// stderr here — and a step can put escape sequences in it: clear the screen, retitle the window, write
// the clipboard (OSC 52), a link that shows one address and opens another. On a terminal (a real pty,
// through `script`) they are shown as `\x1b`…, never sent; to a pipe or a file too (`| less -R`, a log
// read on a terminal later), where they went byte for byte. `--json` is written as it is: JSON escapes
// C0 controls, and a C1 one (U+009B, CSI) shown as `\x9b` would make it no longer JSON. To a terminal,
// `--json` writes that C1 one as its JSON escape `\u009b`: still JSON, and nothing the terminal obeys.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { attackBundle, pyStep } from '../lib/server/escape/attack-bundle';

const root = mkdtempSync(path.join(tmpdir(), 'sc-terminal-'));
after(() => rmSync(root, { recursive: true, force: true }));
const hasScript = spawnSync('script', ['--version']).status === 0;
const dir = attackBundle(root, 'escapes', {
  files: {
    'attack.py': `import sys
def boom(v):
    sys.stderr.write("\\x1b]52;c;cm0gLXJmIH4K\\x07\\x1b[2J\\x1b]0;retitled\\x07\\r" + "done\\n")
    raise ValueError("see \\x1b]8;;http://elsewhere.example\\x07the docs\\x1b]8;;\\x07 \\x9b2J")
`,
  },
  steps: pyStep('boom'),
});
const env = { ...process.env, STAGECRAFT_DATA_DIR: path.join(root, 'data') };

test("a step's escape sequences reach a terminal shown, not obeyed", { skip: hasScript ? false : 'no `script` (util-linux) for a pty' }, () => {
  spawnSync(process.execPath, ['bin/stagecraft.mjs', '--version'], { env }); // dist/ fresh before the pty's run
  const r = spawnSync('script', ['-qec', `${JSON.stringify(process.execPath)} bin/stagecraft.mjs run ${JSON.stringify(dir)}`, '/dev/null'], { encoding: 'utf8', env });
  assert.match(r.stdout, /Last stderr:/, r.stdout + r.stderr);
  assert.ok(!/[\x1b\x07]/.test(r.stdout), `an ESC or BEL reached the terminal: ${JSON.stringify(r.stdout)}`);
  assert.ok(r.stdout.includes('\\x1b]52;c;cm0gLXJmIH4K\\x07\\x1b[2J\\x1b]0;retitled\\x07\\x0ddone'), r.stdout);
  assert.ok(r.stdout.includes('see \\x1b]8;;http://elsewhere.example\\x07the docs'), r.stdout);
});

test('--json to a terminal is still JSON, the C1 control JSON leaves raw written as its escape', { skip: hasScript ? false : 'no `script` (util-linux) for a pty' }, () => {
  spawnSync(process.execPath, ['bin/stagecraft.mjs', '--version'], { env });
  const r = spawnSync('script', ['-qec', `${JSON.stringify(process.execPath)} bin/stagecraft.mjs run ${JSON.stringify(dir)} --json`, '/dev/null'], { encoding: 'utf8', env });
  assert.ok(!/[\x1b\x07\x9b]/.test(r.stdout), `an ESC, BEL or CSI reached the terminal: ${JSON.stringify(r.stdout)}`);
  const summary = JSON.parse(r.stdout) as { error: { message: string } };
  assert.ok(summary.error.message.includes('the docs\x1b]8;;\x07 \x9b2J'), r.stdout);
  assert.ok(r.stdout.includes(' \\u009b2J'), r.stdout);
});

test('to a pipe they are shown too, not sent', () => {
  const r = spawnSync(process.execPath, ['bin/stagecraft.mjs', 'run', dir], { encoding: 'utf8', env });
  assert.equal(r.status, 1);
  const both = r.stdout + r.stderr;
  assert.ok(!/[\x1b\x07\x9b]/.test(both), `an ESC, BEL or CSI reached the pipe: ${JSON.stringify(both)}`);
  assert.ok(r.stdout.includes('\\x1b]52;c;cm0gLXJmIH4K\\x07\\x1b[2J\\x1b]0;retitled\\x07\\x0ddone'), r.stdout);
  assert.ok(r.stdout.includes('see \\x1b]8;;http://elsewhere.example\\x07the docs\\x1b]8;;\\x07 \\x9b2J'), r.stdout);
});

test('--json to a pipe is written as it is: JSON, its escapes its own', () => {
  const r = spawnSync(process.execPath, ['bin/stagecraft.mjs', 'run', dir, '--json'], { encoding: 'utf8', env });
  assert.equal(r.status, 1, r.stderr);
  const summary = JSON.parse(r.stdout) as { runId: string; error: { message: string } };
  assert.ok(summary.error.message.includes('see \x1b]8;;http://elsewhere.example\x07the docs\x1b]8;;\x07 \x9b2J'), r.stdout);
  assert.ok(r.stdout.includes('see \\u001b]8;;http://elsewhere.example\\u0007the docs'), r.stdout);
  // and so is the file `export` writes there
  const exported = spawnSync(process.execPath, ['bin/stagecraft.mjs', 'export', summary.runId], { encoding: 'utf8', env });
  assert.equal(exported.status, 0, exported.stderr);
  assert.ok(JSON.stringify(JSON.parse(exported.stdout)).includes(' \x9b2J'), exported.stdout.slice(0, 500));
});
