/**
 * `stagecraft push DIR`: a bundle folder saved as a new version of its skill
 * (the skill is created when new). The skill is the frontmatter's `name`,
 * else the folder's name — or `as`, when given.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { BundleInvalidError, UsageError } from '../../kernel/errors';
import type { SavedVersionView } from '../../views';
import { isSkillName } from '../../skill/schema';
import type { BundleFiles } from '../../skill/bundle';
import type { Host } from '../host';
import { readBundleDir } from './bundle-dir';
import { saveVersion } from './save-version';
import { skillMdFacts } from './skill-text';

export async function pushSkill(host: Pick<Host, 'skills'>, dir: string, opts: { as?: string } = {}): Promise<SavedVersionView & { skill: string }> {
  const { name, files } = readPush(dir, opts);
  return { skill: name, ...(await saveVersion(host, name, { files, origin: 'push', createIfMissing: true })) };
}

/** `, e.g. --name bad_name`: `name` made a skill name, when it can be */
function nameLike(name: string): string {
  const like = name
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^[^a-z]+/, '')
    .slice(0, 64)
    .replace(/_+$/, '');
  return isSkillName(like) ? `, e.g. --name ${like}` : '';
}

/** The folder's files and the skill they are pushed as, checked (the CLI beside the app sends them to it). */
export function readPush(dir: string, opts: { as?: string } = {}): { name: string; files: BundleFiles } {
  // a missing path was node's ENOENT from deep in the read, an "internal error" with its stack
  if (!existsSync(dir)) throw new UsageError(`${dir} does not exist: pass the bundle folder, the one holding skill.md.`);
  if (!statSync(dir).isDirectory()) throw new UsageError(`${dir} is a file, not a folder: pass the bundle folder that holds skill.md.`);
  // a folder without skill.md is the caller's mistake (as for validate and run), not a bundle the store refused
  if (!existsSync(path.join(dir, 'skill.md'))) throw new UsageError(`${dir} has no skill.md: pass the bundle folder, the one holding skill.md.`);
  const { files, problems } = readBundleDir(dir);
  if (problems.length) throw new BundleInvalidError(problems);
  const folder = path.basename(path.resolve(dir));
  const name = opts.as ?? skillMdFacts(files['skill.md']).name ?? folder;
  if (!isSkillName(name)) {
    const what = `Cannot push ${dir} as "${name}": a skill name is a lowercase letter, then lowercase letters, digits or _ (at most 64).`;
    // the name was --name's own: "pass --name" told the user to do what they had just done
    if (opts.as !== undefined) throw new UsageError(`${what} Pass --name a name of that form${nameLike(name)}.`);
    throw new UsageError(`${what} Set \`name:\` in skill.md, or pass --name.`);
  }
  return { name, files };
}
