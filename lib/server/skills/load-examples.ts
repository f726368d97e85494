/**
 * The example bundles that ship with the app, loaded as skills on start: an
 * example never seen becomes a skill; an example whose files changed (a new
 * release) gets a new version; one the user edited keeps the user's latest
 * (an unchanged example is only recorded, never moved forward), and one the
 * user deleted stays deleted.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Host } from '../host';
import { readBundleDir } from './bundle-dir';
import { skillMdFacts } from './skill-text';

/** The example skill bundles: the folders of `examplesDir` that hold a skill.md, by name. */
export function exampleBundles(examplesDir: string): string[] {
  if (!existsSync(examplesDir)) return [];
  return readdirSync(examplesDir)
    .filter((name) => existsSync(path.join(examplesDir, name, 'skill.md')))
    .sort();
}

export async function loadExampleSkills(host: Pick<Host, 'skills'>, examplesDir: string): Promise<string[]> {
  const loaded: string[] = [];
  for (const name of exampleBundles(examplesDir)) {
    if (await host.skills.wasDeleted(name)) continue;
    const { files, problems } = readBundleDir(path.join(examplesDir, name));
    if (problems.length) continue;
    await host.skills.saveVersion(name, files, { mode: 'record', origin: 'example', description: skillMdFacts(files['skill.md']).description });
    loaded.push(name);
  }
  return loaded;
}
