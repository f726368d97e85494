import { notFound } from 'next/navigation';
import { appHost } from '@/lib/server/app/app-host';
import { getSkill } from '@/lib/server/skills/get-skill';
import { listVersions } from '@/lib/server/skills/list-versions';
import { Studio } from '@/components/studio/Studio';
import { StagecraftError } from '@/lib/kernel/errors';

export const dynamic = 'force-dynamic';

export async function generateMetadata({ params }: { params: Promise<{ name: string }> }) {
  return { title: `${(await params).name} · Stagecraft` };
}

export default async function SkillPage({ params }: { params: Promise<{ name: string }> }) {
  const { name } = await params;
  const host = await appHost();
  let skill;
  try {
    skill = await getSkill(host, name);
  } catch (e) {
    if (e instanceof StagecraftError && e.code === 'skill_not_found') notFound();
    throw e;
  }
  const [versions, knownSkills] = await Promise.all([listVersions(host, name), host.skills.skillNames()]);
  const openai = { configured: Boolean(process.env.STAGECRAFT_MODEL_BASE_URL), model: process.env.STAGECRAFT_MODEL || null };
  return <Studio key={name} skill={skill} versions={versions} knownSkills={knownSkills} openai={openai} now={Date.now()} />;
}
