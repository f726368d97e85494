#!/usr/bin/env -S node --import tsx
/**
 * Regenerates the replay fixtures: each example (examples/*) run once with its
 * input.json and its model.yaml on a throwaway in-memory store, and exported
 * to fixtures/replay/<example>.json (`stagecraft export`'s format).
 *
 *   npm run fixtures:replay
 *
 * Run it after changing an example: lib/server/runs/replay-fixtures.test.ts replays
 * every fixture against its example and fails while the two disagree. Runs are
 * made from a copy of the examples at a fixed temporary path, with fixed run
 * ids, so the files name nothing of the machine that made them.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { memoryHost } from '../lib/server/testing';
import { startSkillRun } from '../lib/server/runs/start-run';
import { exportRun } from '../lib/server/runs/export-run';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const out = path.join(root, 'fixtures', 'replay');
/** where the examples are copied to before they run (it appears in the fixtures, as the run's folder) */
const STAGE = '/tmp/stagecraft-fixtures/examples';
/** and where their versions' copies are (the recorded model script and capability paths are in it) */
const DATA = '/tmp/stagecraft-fixtures/data';

async function main(): Promise<number> {
  rmSync(path.dirname(STAGE), { recursive: true, force: true });
  mkdirSync(STAGE, { recursive: true });
  mkdirSync(out, { recursive: true });
  const examples = readdirSync(path.join(root, 'examples'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const host = memoryHost({ cwd: STAGE, env: { STAGECRAFT_DATA_DIR: DATA } });
  for (const name of examples) {
    cpSync(path.join(root, 'examples', name), path.join(STAGE, name), { recursive: true });
    const input = JSON.parse(readFileSync(path.join(STAGE, name, 'input.json'), 'utf8'));
    const outcome = await startSkillRun(host, { bundle: name, input, runId: `fixture-${name}`, model: 'scripted:model.yaml' });
    if (outcome.status !== 'completed') {
      console.error(`${name}: the run ${outcome.status}: ${JSON.stringify(outcome.error)}`);
      return 1;
    }
    const doc = await exportRun(host, outcome.runId);
    writeFileSync(path.join(out, `${name}.json`), `${JSON.stringify(doc, null, 1)}\n`);
    console.log(`fixtures/replay/${name}.json: ${doc.events.length} events, skill version ${doc.skill.version.slice(0, 12)}`);
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
