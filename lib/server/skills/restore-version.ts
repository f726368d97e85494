/**
 * Restoring a version: it becomes the skill's latest again, recorded with the
 * origin `restore` — one operation (`POST /api/skills/<name>/versions/<hash>/restore`,
 * the Versions panel's Restore), so a restore is never half done by a browser
 * that went away between reading a version and saving it.
 */
import type { RestoredVersionView } from '../../views';
import type { Host } from '../host';
import { saveVersion } from './save-version';
import { versionView } from './views';

export async function restoreVersion(host: Pick<Host, 'skills'>, name: string, hash: string): Promise<RestoredVersionView> {
  // a unique prefix will do, as everywhere a version is named; an unknown one is VersionNotFoundError
  const wanted = await host.skills.getVersion(name, hash);
  const saved = await saveVersion(host, name, { files: wanted.files, origin: 'restore' });
  return { version: versionView(await host.skills.getVersion(name, saved.version.hash)), validation: saved.validation };
}
