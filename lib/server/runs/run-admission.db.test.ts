// Admission on the embedded store, as the app runs it: a start asked for while every slot is taken
// answers with its run id as soon as the run is recorded `queued` — not when a slot frees — and the
// queued run is then driven to its end in its turn. Many starts at once are all answered with
// recorded runs, before the first run's step is over.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openStore, type OpenedStore } from '../../store';
import { hostFor, type Host } from '../host';
import { SLOW_SKILL } from '../http/testing/load';
import { launchAdmittedRun, RunAdmission } from './run-admission';

const STEP_MS = 4000;
const dataDir = mkdtempSync(path.join(tmpdir(), 'sc-admit-db-'));
let store: OpenedStore;
let host: Host;
before(async () => {
  store = await openStore({ dataDir: path.join(dataDir, 'db') });
  host = hostFor({ store, skills: store.skills, env: { ...process.env, DATABASE_URL: undefined, STAGECRAFT_DATA_DIR: dataDir }, cwd: process.cwd() });
  await store.skills.saveVersion('load_probe', SLOW_SKILL(STEP_MS), { mode: 'save', origin: 'app', description: '' });
  // the queued runs' steps are short: what is tested is that they wait for the slot, not for steps of their own
  await store.skills.saveVersion('quick_probe', SLOW_SKILL(50, 'quick_probe'), { mode: 'save', origin: 'app', description: '' });
});
after(async () => {
  await store?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('launchAdmittedRun on the embedded store', () => {
  it('answers with the run id while the run is queued behind a running one; the queued run then runs to its end', async () => {
    const admission = new RunAdmission(1);
    const first = await launchAdmittedRun(host, { skill: 'load_probe', input: { n: 1 } }, admission);
    assert.equal(first.queued, false);
    const t0 = performance.now();
    const ids = await Promise.all([2, 3, 4, 5, 6].map((n) => launchAdmittedRun(host, { skill: 'quick_probe', input: { n } }, admission)));
    const answeredMs = performance.now() - t0;
    // every answer came while the first run still holds the only slot, its step not over
    assert.equal((await store.getRun(first.runId))!.status, 'running');
    assert.ok(answeredMs < STEP_MS, `the queued starts answered in ${Math.round(answeredMs)} ms, not before the running one's ${STEP_MS} ms step ended`);
    assert.deepEqual(ids.map((l) => l.queued), [true, true, true, true, true]);
    for (const l of ids) assert.equal((await store.getRun(l.runId))!.status, 'queued', `${l.runId} is recorded queued`);
    assert.equal(admission.waiting, 5);

    const outcomes = await Promise.all([first, ...ids].map((l) => l.done));
    assert.deepEqual(outcomes.map((o) => o.status), ['completed', 'completed', 'completed', 'completed', 'completed', 'completed']);
    const events = await store.readEvents(ids[4].runId);
    assert.deepEqual(events.slice(0, 2).map((e) => e.type), ['run_started', 'run_admitted']);
    assert.equal(admission.peak, 1, 'never two at once');
  });
});
