/**
 * Saving a bundle as a version of a skill: the app's Save and restore,
 * `POST /api/skills/<name>/versions`, `stagecraft push`. The same files give
 * the same version, which becomes the latest again.
 *
 * A bundle the store cannot keep (bad paths, binary files, over a limit) is a
 * BundleInvalidError listing every problem. A skill.md with errors is saved
 * all the same — a draft may be broken; running it is what is refused — and
 * the answer carries its findings.
 */
import { BundleInvalidError, SkillNotFoundError } from '../../kernel/errors';
import { checkBundle, type BundleFiles } from '../../skill/bundle';
import type { VersionOrigin } from '../../store/skills';
import type { SavedVersionView } from '../../views';
import type { Host } from '../host';
import { skillMdFacts } from './skill-text';
import { validateFiles } from './validate-bundle';
import { versionSummaryView } from './views';

export type SaveVersionRequest = {
  files: BundleFiles;
  origin?: VersionOrigin;
  /** create the skill when there is none of that name (push); else saving to an unknown skill is SkillNotFoundError */
  createIfMissing?: boolean;
};

export async function saveVersion(host: Pick<Host, 'skills'>, name: string, req: SaveVersionRequest): Promise<SavedVersionView> {
  const problems = checkBundle(req.files);
  if (problems.length) throw new BundleInvalidError(problems);
  const names = await host.skills.skillNames();
  if (!req.createIfMissing && !names.includes(name)) throw new SkillNotFoundError(name);
  const saved = await host.skills.saveVersion(name, req.files, { mode: 'save', origin: req.origin ?? 'app', description: skillMdFacts(req.files['skill.md']).description });
  const version = await host.skills.getVersion(name, saved.hash);
  return {
    version: versionSummaryView(version),
    isNew: saved.isNew,
    validation: validateFiles(req.files, { knownSkills: names.includes(name) ? names : [...names, name], skillName: name }),
  };
}
