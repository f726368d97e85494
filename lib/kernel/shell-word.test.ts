import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { shellWord } from './shell-word';

test('a word a shell would split or expand is quoted so the shell gives it back as it was', () => {
  assert.equal(shellWord('examples/blog_writer'), 'examples/blog_writer');
  assert.equal(shellWord('./summarize'), './summarize');
  for (const word of ['my skills/blog', "it's here", 'a$HOME`x`', 'semi;colon & *.md', '', 'tab\there', 'new\nline', '!bang', "''"]) {
    const quoted = shellWord(word);
    assert.notEqual(quoted, word, word);
    const echoed = spawnSync('sh', ['-c', `printf %s ${quoted}`], { encoding: 'utf8' });
    assert.equal(echoed.stdout, word, `${word} → ${quoted}`);
  }
});
