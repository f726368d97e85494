/** A skill's versions, newest save first: the version list, `GET /api/skills/<name>/versions` and `stagecraft versions`. */
import { SkillNotFoundError } from '../../kernel/errors';
import type { SkillVersionsView, VersionSummaryView } from '../../views';
import type { Host } from '../host';
import { versionSummaryView } from './views';

export async function listVersions(host: Pick<Host, 'skills'>, name: string): Promise<VersionSummaryView[]> {
  const versions = await host.skills.listVersions(name);
  if (!versions) throw new SkillNotFoundError(name);
  return versions.map(versionSummaryView);
}

/** `stagecraft versions SKILL`: the versions, and which one is the latest (what no --version means) */
export async function skillVersions(host: Pick<Host, 'skills'>, name: string): Promise<SkillVersionsView> {
  const versions = await listVersions(host, name);
  const latest = (await host.skills.getSkill(name))?.latest?.hash ?? null;
  return { skill: name, latest, versions: versions.map((v) => ({ ...v, isLatest: v.hash === latest })) };
}
