/**
 * What the app does when its server starts: open the store (embedded unless
 * DATABASE_URL is set), load the example skills as skill versions (a version
 * is only added when the text changed), and resume every interrupted run in
 * the background. Called once from instrumentation.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { getStore, type OpenedStore } from '../../store';
import { resumeAllRuns } from '../runs/resume-run';
import { exampleBundles } from './examples';

export async function loadExampleSkills(store: OpenedStore, examplesDir: string): Promise<string[]> {
  const names = exampleBundles(examplesDir);
  for (const name of names) await store.saveSkillVersion(name, readFileSync(path.join(examplesDir, name, 'skill.md'), 'utf8'));
  return names;
}

export async function boot(cwd: string = process.cwd()): Promise<void> {
  const store = await getStore();
  const skills = await loadExampleSkills(store, path.join(cwd, 'examples'));
  console.log(`stagecraft: store ready (${store.backend}), ${skills.length} example skills loaded`);
  const pending = await store.listResumable();
  if (pending.length === 0) return;
  console.log(`stagecraft: resuming ${pending.length} interrupted run(s)`);
  void resumeAllRuns({ store, env: process.env, cwd }, pending, (r, i, n) => {
    const how = r.outcome?.status ?? `not resumed (${String((r.error as Error)?.message)})`;
    console.log(`stagecraft: [${i + 1}/${n}] resumed ${r.runId}: ${how}`);
  });
}
