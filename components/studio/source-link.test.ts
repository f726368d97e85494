import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSourceLink, revealIn, sourceHref } from './source-link';

test('a link back to the source round-trips: version, file, line', () => {
  const href = sourceHref('tally', { version: 'abc123def', line: 12, file: 'count.py' });
  assert.equal(href, '/skills/tally?version=abc123def&file=count.py&line=12');
  assert.deepEqual(parseSourceLink(new URLSearchParams(href.split('?')[1])), { version: 'abc123def', line: 12, file: 'count.py', problems: [] });
  assert.equal(sourceHref('a b', { line: 3, file: 'skill.md' }), '/skills/a%20b?line=3');
  assert.equal(sourceHref('x', {}), '/skills/x');
  assert.deepEqual(parseSourceLink({ version: ['abcdef', 'ef0123'], line: '7' }), { version: 'abcdef', line: 7, file: null, problems: [] });
});

test('what is not a version or a line is named, and left out', () => {
  const r = parseSourceLink(new URLSearchParams('version=../../etc&line=-3'));
  assert.equal(r.version, null);
  assert.equal(r.line, null);
  assert.match(r.problems[0], /^\?version=\.\.\/\.\.\/etc: a version is its hash/);
  assert.match(r.problems[1], /^\?line=-3: a line is a whole number from 1/);
  assert.deepEqual(parseSourceLink(new URLSearchParams('line=0')).line, null);
  assert.deepEqual(parseSourceLink(new URLSearchParams('')), { version: null, line: null, file: null, problems: [] });
});

test('a version shorter than the store takes (6 hex digits) is named with the same rule the store says', () => {
  const r = parseSourceLink(new URLSearchParams('version=30482'));
  assert.equal(r.version, null);
  assert.match(r.problems[0], /^\?version=30482: a version is its hash \(hex, at least 6 characters\)/);
});

test('a line past the end of its file is said, and no line is revealed (not the last one marked in its place)', () => {
  const files = { 'skill.md': '---\nname: x\n---\n', 'count.py': 'def f(v):\n    return v' };
  assert.deepEqual(revealIn({ line: 9999, file: null }, files), { reveal: null, problems: ['?line=9999: skill.md has 4 lines. No line is revealed.'] });
  assert.deepEqual(revealIn({ line: 3, file: 'count.py' }, files), { reveal: null, problems: ['?line=3: count.py has 2 lines. No line is revealed.'] });
  // the editor's last line (after the final newline) is a line
  assert.deepEqual(revealIn({ line: 4, file: null }, files), { reveal: { file: 'skill.md', line: 4 }, problems: [] });
  assert.deepEqual(revealIn({ line: 2, file: 'count.py' }, files), { reveal: { file: 'count.py', line: 2 }, problems: [] });
  // a file the bundle lacks: skill.md instead, said; so is a name only an object's prototype holds
  assert.deepEqual(revealIn({ line: 1, file: 'nope.py' }, files), { reveal: { file: 'skill.md', line: 1 }, problems: ['?file=nope.py: the bundle has no such file; showing skill.md.'] });
  assert.deepEqual(revealIn({ line: 1, file: 'toString' }, files).reveal, { file: 'skill.md', line: 1 });
  assert.deepEqual(revealIn({ line: null, file: null }, files), { reveal: null, problems: [] });
});
