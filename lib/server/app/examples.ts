/** The example skill bundles: the folders of `examplesDir` that hold a skill.md, by name. */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

export function exampleBundles(examplesDir: string): string[] {
  if (!existsSync(examplesDir)) return [];
  return readdirSync(examplesDir)
    .filter((name) => existsSync(path.join(examplesDir, name, 'skill.md')))
    .sort();
}
