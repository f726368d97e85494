/** A skill's versions, newest save first: the version list and `GET /api/skills/<name>/versions`. */
import { SkillNotFoundError } from '../../kernel/errors';
import type { VersionSummaryView } from '../../views';
import type { Host } from '../host';
import { versionSummaryView } from './views';

export async function listVersions(host: Pick<Host, 'skills'>, name: string): Promise<VersionSummaryView[]> {
  const versions = await host.skills.listVersions(name);
  if (!versions) throw new SkillNotFoundError(name);
  return versions.map(versionSummaryView);
}
