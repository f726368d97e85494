/** The skills, by name, each with its latest version and its last run: the home page and `GET /api/skills`. */
import type { SkillView } from '../../views';
import type { Host } from '../host';
import { skillView } from './views';

export async function listSkills(host: Pick<Host, 'skills'>): Promise<SkillView[]> {
  return (await host.skills.listSkills()).map(skillView);
}
