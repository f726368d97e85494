/**
 * Creating a skill: blank (from the template: a skill that runs offline at
 * once), or as a copy of another skill's latest version or of an example
 * bundle. The copy's skill.md takes the new name. `POST /api/skills`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { SkillNotFoundError } from '../../kernel/errors';
import type { BundleFiles } from '../../skill/bundle';
import type { SkillDetailView } from '../../views';
import type { Host } from '../host';
import { readBundleDir } from './bundle-dir';
import { getSkill } from './get-skill';
import { skillMdFacts, withSkillName } from './skill-text';
import { isSkillName } from '../../skill/schema';
import { blankBundle } from './templates';

export type CreateSkillRequest = { name: string; /** `blank` (default), a skill's name, or an example's name */ from?: string };

async function sourceFiles(host: Pick<Host, 'skills'>, from: string, examplesDir: string | undefined): Promise<BundleFiles> {
  if ((await host.skills.skillNames()).includes(from)) return (await host.skills.getVersion(from)).files;
  const example = examplesDir ? path.join(examplesDir, from) : null;
  if (example && isSkillName(from) && existsSync(path.join(example, 'skill.md'))) return readBundleDir(example).files;
  throw new SkillNotFoundError(from);
}

export async function createSkill(host: Pick<Host, 'skills'>, req: CreateSkillRequest, opts: { examplesDir?: string } = {}): Promise<SkillDetailView> {
  const from = req.from ?? 'blank';
  let files = from === 'blank' ? blankBundle(req.name) : await sourceFiles(host, from, opts.examplesDir);
  const renamed = withSkillName(files['skill.md'] ?? '', req.name);
  if (renamed !== null) files = { ...files, 'skill.md': renamed };
  await host.skills.saveVersion(req.name, files, { mode: 'create', origin: 'create', description: skillMdFacts(files['skill.md']).description });
  return getSkill(host, req.name);
}
