/**
 * Renaming a skill (`PATCH /api/skills/<name>`). The skill keeps its versions
 * and runs; its skill.md gets the new `name:` as a new latest version, in the
 * same transaction, so the text and the skill keep saying the same name.
 */
import type { SkillDetailView } from '../../views';
import type { Host } from '../host';
import { getSkill } from './get-skill';
import { skillMdFacts, withSkillName } from './skill-text';

export async function renameSkill(host: Pick<Host, 'skills'>, from: string, to: string): Promise<SkillDetailView> {
  const current = (await host.skills.getSkill(from))?.latest ? await host.skills.getVersion(from) : null;
  const text = current?.files['skill.md'];
  const renamedText = text === undefined || skillMdFacts(text).name !== from ? null : withSkillName(text, to);
  await host.skills.renameSkill(
    from,
    to,
    current && renamedText !== null ? { files: { ...current.files, 'skill.md': renamedText }, description: current.description } : undefined,
  );
  return getSkill(host, to);
}
