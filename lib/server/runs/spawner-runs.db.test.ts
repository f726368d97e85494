// Runs driven as the app drives them (the admission), with the sandbox's spawner started as the app's
// boot starts it, on Postgres and on the embedded store: a code step runs end to end in a worker the
// spawner launched; and when the spawner is killed mid-step, the step is not the run's failure — the
// spawner is started again and the run resumes from its last commit and completes.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EVENT } from '../../kernel/events';
import { openStore, type OpenedStore } from '../../store';
import { createTestDatabase, type TestDatabase } from '../../store/testing/pg-test-db';
import { startSpawner, stopSpawner, type Spawner } from '../../sandbox/spawner';
import { hostFor } from '../host';
import { launchAdmittedRun, RunAdmission } from './run-admission';

let database: TestDatabase;
let root: string;
let spawner: Spawner;
before(async () => {
  database = await createTestDatabase();
  root = mkdtempSync(path.join(tmpdir(), 'sc-spawner-runs-'));
  spawner = await startSpawner();
});
after(async () => {
  await stopSpawner();
  await database?.drop();
  rmSync(root, { recursive: true, force: true });
});

/** one step that writes a line to the workspace, one that waits `ms` (the one the spawner dies in), one that reads the line back */
const SKILL = (ms: number): Record<string, string> => ({
  'skill.md': `---\nname: spawned\nentry: go\ngraph:\n  go: []\noutput_schema: { type: object }\npostprocessor:\n  output_schema: { type: object, required: [read, waited] }\n  steps:\n    - { type: node, module: ./steps.mjs, function: write }\n    - { type: node, module: ./steps.mjs, function: wait }\n    - { type: node, module: ./steps.mjs, function: read }\n---\nGo.\n`,
  'steps.mjs': `import { appendFileSync, readFileSync } from 'node:fs';
export function write(v) { appendFileSync('log.txt', 'written\\n'); return { wrote: true }; }
export async function wait(v) { await new Promise((r) => setTimeout(r, ${ms})); return { waited: ${ms} }; }
export function read(v) { return { read: readFileSync('log.txt', 'utf8') }; }
`,
  'model.yaml': 'turns:\n  - finish: {}\n',
});

for (const [label, open] of [
  ['Postgres', () => openStore({ databaseUrl: database.url })],
  ['the embedded store', () => openStore({ dataDir: path.join(root, 'embedded') })],
] as const) {
  describe(`runs with the spawner, on ${label}`, () => {
    let store: OpenedStore;
    let host: ReturnType<typeof hostFor>;
    before(async () => {
      store = await open();
      host = hostFor({ store, skills: store.skills, env: { STAGECRAFT_DATA_DIR: path.join(root, `data-${label.length}`) }, cwd: root });
    });
    after(async () => store?.close());

    it('a code step runs end to end in a worker the spawner launched', async () => {
      await host.skills.saveVersion('spawned', SKILL(10), { mode: 'save', origin: 'app', description: '' });
      const refused = spawner.refusedConnections;
      const launched = await launchAdmittedRun(host, { skill: 'spawned', input: {} }, new RunAdmission(2));
      const outcome = await launched.done;
      assert.equal(outcome.status, 'completed', JSON.stringify(outcome.error));
      assert.deepEqual(outcome.output, { wrote: true, waited: 10, read: 'written\n' });
      assert.equal(spawner.refusedConnections, refused);
    });

    it('the spawner killed mid-step: the run is not failed, the spawner comes back, the run resumes and completes', async () => {
      await host.skills.saveVersion('spawned', SKILL(4_000), { mode: 'save', origin: 'app', description: '' });
      const restarts = spawner.restarts;
      const launched = await launchAdmittedRun(host, { skill: 'spawned', input: {} }, new RunAdmission(2));
      // until the waiting step has started (its begin is committed before it executes)
      for (const until = Date.now() + 60_000; ; ) {
        const events = await store.readEvents(launched.runId);
        if (events.some((e) => e.type === EVENT.stepCompleted && e.data.kind === 'processor')) break;
        assert.ok(Date.now() < until, 'the first step never completed');
        await new Promise((r) => setTimeout(r, 100));
      }
      await new Promise((r) => setTimeout(r, 1_000));
      process.kill(spawner.pid!, 'SIGKILL');
      const outcome = await launched.done;
      assert.equal(outcome.status, 'completed', JSON.stringify(outcome.error));
      assert.equal(spawner.restarts, restarts + 1);
      const types = (await store.readEvents(launched.runId)).map((e) => e.type);
      assert.ok(types.includes(EVENT.runResumed), `resumed: ${types.join(', ')}`);
      assert.ok(!types.includes(EVENT.runFailed));
      // the first step's write was committed and not repeated: the workspace has one line
      assert.equal((outcome.output as { read: string }).read, 'written\n');
    });
  });
}
