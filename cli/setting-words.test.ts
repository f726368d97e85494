// A bad setting found by any command (`STAGECRAFT_HTTP_PRIVATE=DENY stagecraft run …`) was said with the
// command's whole usage after it, as if the command line were wrong: nothing was wrong with it. The problem is
// said alone, `stagecraft:` first, exit 2 as before; a mistake in the command line still gets the usage.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, tempCliEnv } from './testing/spawn-cli';

const { env, cleanup } = tempCliEnv('sc-setting-words-');
after(cleanup);

test('a bad setting is said alone, without the usage of the command that read it', async () => {
  const run = await runCli(['run', 'examples/summarize'], { env: { ...env, STAGECRAFT_HTTP_PRIVATE: 'DENY' } });
  assert.equal(run.code, 2, run.err);
  assert.match(run.err, /^stagecraft: STAGECRAFT_HTTP_PRIVATE="DENY": it is deny \(http\/get reaches the public internet only\) or allow/m);
  assert.doesNotMatch(run.err, /usage:/);
  const resume = await runCli(['resume', 'run_nope'], { env: { ...env, STAGECRAFT_SANDBOX: 'bogus' } });
  assert.equal(resume.code, 2, resume.err);
  assert.match(resume.err, /^stagecraft: STAGECRAFT_SANDBOX="bogus": use off, auto/m);
  assert.doesNotMatch(resume.err, /usage:/);
  // the command line's own mistake: its usage, as before
  const flag = await runCli(['run', 'examples/summarize', '--bogus'], { env });
  assert.equal(flag.code, 2, flag.err);
  assert.match(flag.err, /\n\nusage:\n {2}stagecraft run /);
});
