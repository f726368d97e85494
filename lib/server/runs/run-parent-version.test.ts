// A replay's or fork's run view names the version its parent ran (parentVersion), and the run page's
// lineage line says it when the two differ: "This run is a fork of run_…, from __post__/0. Compare with it.
// It ran version X; that run ran Y." Before, a rerun after a fix read as the same skill run again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { otherVersionWords } from '../../../components/replay/rerun-version';
import { memoryHost } from '../testing';
import { forkRun } from './fork-run';
import { getRun } from './run-summary';
import { startSkillRun } from './start-run';

test('a rerun with another version names its parent version; one with the same version, and a plain run, do not differ', async (t) => {
  const workspace = mkdtempSync(path.join(tmpdir(), 'sc-parent-version-'));
  t.after(() => rmSync(workspace, { recursive: true, force: true }));
  cpSync(path.resolve('examples/summarize'), path.join(workspace, 'summarize'), { recursive: true });
  const input = JSON.parse(readFileSync(path.join(workspace, 'summarize', 'input.json'), 'utf8'));
  const host = memoryHost({ cwd: workspace });
  const parent = await startSkillRun(host, { bundle: 'summarize', input });
  const fixed = path.join(workspace, 'summarize_fixed');
  cpSync(path.join(workspace, 'summarize'), fixed, { recursive: true });
  writeFileSync(path.join(fixed, 'sanitize.py'), readFileSync(path.join(fixed, 'sanitize.py'), 'utf8').replace('"[email]"', '"[e-mail]"'));

  const p = await getRun(host, parent.runId);
  assert.equal(p.parentVersion, undefined, 'a run of its own has no parent');
  const other = await getRun(host, (await forkRun(host, parent.runId, { at: '__post__/0', skillDir: fixed })).runId);
  assert.equal(other.parentVersion, p.version);
  assert.notEqual(other.version, p.version);
  assert.equal(otherVersionWords(other.version, other.parentVersion), `It ran version ${other.version!.slice(0, 8)}; that run ran ${p.version!.slice(0, 8)}.`);
  const same = await getRun(host, (await forkRun(host, parent.runId, { at: '__post__/0', version: p.version! })).runId);
  assert.equal(same.parentVersion, p.version);
  assert.equal(otherVersionWords(same.version, same.parentVersion), '');
});
