/**
 * A host for tests of lib/server on the kernel's in-memory store: a
 * MemorySkillRepo (whose `lastRun` reads that store) and a fresh folder for
 * the versions' read-only copies. And `sleeper`, a bundle whose one code step
 * naps for a minute: a run to abort while that step is in flight.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MemoryStore } from '../kernel/memory-store';
import type { ModelEnv } from '../models';
import { MemorySkillRepo } from '../store/testing/memory-skills';
import { hostFor, type Host } from './host';

export function memoryHost(opts: { cwd: string; env?: ModelEnv; store?: MemoryStore }): Host & { store: MemoryStore; skills: MemorySkillRepo } {
  const store = opts.store ?? new MemoryStore();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sc-host-'));
  const host = hostFor({ store, skills: new MemorySkillRepo(store), env: { STAGECRAFT_DATA_DIR: dataDir, ...opts.env }, cwd: opts.cwd });
  return { ...host, store, skills: host.skills as MemorySkillRepo };
}

/** writes the bundle `sleeper` into `workspace`: its postprocessor's one node step naps for 60 s */
export function writeSleeperBundle(workspace: string): void {
  mkdirSync(path.join(workspace, 'sleeper'));
  writeFileSync(
    path.join(workspace, 'sleeper', 'skill.md'),
    '---\nname: sleeper\nentry: go\ngraph:\n  go: []\noutput_schema: { type: object }\npostprocessor:\n  output_schema: { type: object }\n  steps:\n    - { type: node, module: ./nap.mjs, function: nap, timeout_ms: 120000 }\n---\nGo.\n',
  );
  writeFileSync(path.join(workspace, 'sleeper', 'nap.mjs'), 'export async function nap(v) { await new Promise((r) => setTimeout(r, 60000)); return v; }\n');
  writeFileSync(path.join(workspace, 'sleeper', 'model.yaml'), 'turns:\n  - finish: {}\n');
}
