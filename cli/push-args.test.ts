// `stagecraft push` of a path that is not there was an "internal error" with node's ENOENT stack; a
// skill.md named instead of its folder was "The bundle has no skill.md". Both are usage errors
// (exit 2) saying what to pass.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from './testing/spawn-cli';

const dataDir = mkdtempSync(path.join(tmpdir(), 'sc-push-args-'));
const env: NodeJS.ProcessEnv = { ...process.env, STAGECRAFT_DATA_DIR: dataDir };
delete env.DATABASE_URL;
after(() => rmSync(dataDir, { recursive: true, force: true }));

test('push of a missing path or of a file is a one-line usage error, no stack', async () => {
  const missing = await runCli(['push', '/nowhere/bundle'], { env });
  assert.equal(missing.code, 2, missing.err);
  assert.match(missing.err, /^stagecraft: \/nowhere\/bundle does not exist: pass the bundle folder, the one holding skill\.md\.$/m);
  assert.doesNotMatch(missing.err, /internal error|\n\s+at /);
  const file = await runCli(['push', 'examples/summarize/skill.md'], { env });
  assert.equal(file.code, 2, file.err);
  assert.match(file.err, /^stagecraft: examples\/summarize\/skill\.md is a file, not a folder: pass the bundle folder that holds skill\.md\.$/m);
});
