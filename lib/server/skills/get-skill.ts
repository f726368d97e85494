/** One skill with its latest version and every file of it: the editor page and `GET /api/skills/<name>`. */
import { SkillNotFoundError } from '../../kernel/errors';
import type { SkillDetailView } from '../../views';
import type { Host } from '../host';
import { skillDetailView } from './views';

export async function getSkill(host: Pick<Host, 'skills'>, name: string): Promise<SkillDetailView> {
  const skill = await host.skills.getSkill(name);
  if (!skill) throw new SkillNotFoundError(name);
  return skillDetailView(skill, skill.latest ? await host.skills.getVersion(name) : null);
}
