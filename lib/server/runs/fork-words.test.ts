// A fork's errors name its fields as its caller knows them: the API's `set` and `at` (a body field),
// the CLI's `--set` and `--at` (a flag) — the same parsing, the wording passed in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { memoryHost } from '../testing';
import { forkRun, launchFork } from './fork-run';
import { startSkillRun } from './start-run';

const workspace = mkdtempSync(path.join(tmpdir(), 'sc-fork-words-'));
cpSync(path.resolve('examples/summarize'), path.join(workspace, 'summarize'), { recursive: true });
const input = JSON.parse(readFileSync(path.join(workspace, 'summarize', 'input.json'), 'utf8'));

const refused = (word: RegExp) => (e: Error & { code?: string }) => word.test(e.message) && (e.code === 'fork_edit_invalid' || e.code === 'usage');

test("the API's fork errors name `set` and `at`, never a CLI flag; the CLI's keep `--set` and `--at`", async () => {
  const host = memoryHost({ cwd: workspace });
  const parent = await startSkillRun(host, { bundle: 'summarize', input });
  const badPath = { at: '__post__', set: [{ path: 'paragraphs[', value: 'x' }] };
  const noArray = { at: '__post__', set: [{ path: 'paragraphs[0].deep', value: 'x' }] };
  const pastEnd = { at: '__post__', set: [{ path: 'paragraphs[9]', value: 'x' }] };

  for (const req of [badPath, noArray, pastEnd]) {
    await assert.rejects(launchFork(host, parent.runId, req), (e: Error & { code?: string }) => {
      assert.equal(e.code, 'fork_edit_invalid', e.message);
      assert.match(e.message, /^set paragraphs\[/, 'the API names its field');
      assert.doesNotMatch(e.message, /--set/);
      return true;
    });
    await assert.rejects(forkRun(host, parent.runId, req), refused(/^--set paragraphs\[/));
  }
  // a completed run and no point: the API names its field `at`, the CLI its flag
  await assert.rejects(launchFork(host, parent.runId, {}), (e: Error & { code?: string }) => {
    assert.equal(e.code, 'usage');
    assert.match(e.message, /"at": POSITION/);
    assert.doesNotMatch(e.message, /--at/);
    return true;
  });
  await assert.rejects(forkRun(host, parent.runId, {}), refused(/--at POSITION/));
});
