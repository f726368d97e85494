// Printed output holding terminal escape sequences (a tool's colours: ESC [ 31 m …) showed on the run
// page as a box glyph and `[31m`. Made readable for display: CSI sequences (colours, cursor moves,
// erasures) are dropped, every other control but tab and newline is shown as text (`\x1b`, `\x07`),
// so no terminal obeys it either; text without a control comes back as it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readableText } from './terminal-text';

test('colour codes (SGR) and other CSI sequences are dropped', () => {
  assert.equal(readableText('\u001b[31mred\u001b[0m and \u001b[1;38;5;208mbold orange\u001b[m'), 'red and bold orange');
  assert.equal(readableText('50%\u001b[2K\u001b[1Gdone \u001b[2J\u001b[?25h'), '50%done ');
  // the C1 form of CSI too
  assert.equal(readableText('\u009b32mgreen\u009b0m'), 'green');
});

test('any other control but tab and newline is shown as text: an OSC title, a bell, a lone ESC, a carriage return, DEL', () => {
  assert.equal(readableText('careful \u001b]0;retitled\u0007\u001b[2J'), 'careful \\x1b]0;retitled\\x07');
  assert.equal(readableText('a\u001bb\rc\u007fd\u0008'), 'a\\x1bb\\x0dc\\x7fd\\x08');
  assert.equal(readableText('tab\there\nnext line'), 'tab\there\nnext line');
});

test('text without a control comes back as it was, the recorded `\\x00` of a NUL and a cut line included', () => {
  for (const s of ['', 'plain', '<b>not bold</b>', 'a \\x00 b', 'head\n[… 1024 bytes of output left out …]\ntail', 'emoji 👍 and [31m alone']) assert.equal(readableText(s), s);
});
