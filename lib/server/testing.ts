/**
 * A host for tests of lib/server on the kernel's in-memory store: a
 * MemorySkillRepo (whose `lastRun` reads that store) and a fresh folder for
 * the versions' read-only copies.
 */
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MemoryStore } from '../kernel/memory-store';
import type { JsonObject } from '../kernel/json';
import type { ModelEnv } from '../models';
import { MemorySkillRepo } from '../store/testing/memory-skills';
import { hostFor, type Host } from './host';

export function memoryHost(opts: { cwd: string; env?: ModelEnv; store?: MemoryStore }): Host & { store: MemoryStore; skills: MemorySkillRepo } {
  const store = opts.store ?? new MemoryStore();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sc-host-'));
  const host = hostFor({ store, skills: new MemorySkillRepo(store), env: { STAGECRAFT_DATA_DIR: dataDir, ...opts.env }, cwd: opts.cwd });
  return { ...host, store, skills: host.skills as MemorySkillRepo };
}

/** a fresh folder holding a copy of examples/<example> (as the folder `<example>`), and that example's input */
export function exampleWorkspace(prefix: string, example: string): { workspace: string; input: JsonObject } {
  const workspace = mkdtempSync(path.join(tmpdir(), prefix));
  cpSync(path.resolve('examples', example), path.join(workspace, example), { recursive: true });
  return { workspace, input: JSON.parse(readFileSync(path.join(workspace, example, 'input.json'), 'utf8')) as JsonObject };
}
