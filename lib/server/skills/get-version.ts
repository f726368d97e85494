/** One version of a skill, with its files, by hash (or a unique prefix of it): `GET /api/skills/<name>/versions/<hash>`. */
import type { VersionView } from '../../views';
import type { Host } from '../host';
import { versionView } from './views';

export async function getVersion(host: Pick<Host, 'skills'>, name: string, hash?: string): Promise<VersionView> {
  return versionView(await host.skills.getVersion(name, hash));
}
