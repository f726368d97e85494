import { notFound } from 'next/navigation';
import { appHost } from '@/lib/server/app/app-host';
import { getSkill } from '@/lib/server/skills/get-skill';
import { getVersion } from '@/lib/server/skills/get-version';
import { listVersions } from '@/lib/server/skills/list-versions';
import { Studio } from '@/components/studio/Studio';
import { parseSourceLink, revealIn } from '@/components/studio/source-link';
import { StagecraftError } from '@/lib/kernel/errors';
import { storePage } from '@/app/store-page';

export const dynamic = 'force-dynamic';

export async function generateMetadata({ params }: { params: Promise<{ name: string }> }) {
  return { title: `${(await params).name} · Stagecraft` };
}

type Search = Record<string, string | string[] | undefined>;

/**
 * `/skills/<name>`: the studio on the latest version. `?version=<hash>&line=<n>` (and `&file=<path>`,
 * skill.md when left out) opens it at that version's text with line n revealed — "back to the
 * source" from a run — read-only when that version is not the latest.
 */
export default storePage('/skills/[name]', async function SkillPage({ params, searchParams }: { params: Promise<{ name: string }>; searchParams: Promise<Search> }) {
  const { name } = await params;
  const host = await appHost();
  let skill;
  try {
    skill = await getSkill(host, name);
  } catch (e) {
    if (e instanceof StagecraftError && e.code === 'skill_not_found') notFound();
    throw e;
  }
  const link = parseSourceLink(await searchParams);
  const problems = [...link.problems];
  let viewing = null;
  if (link.version) {
    try {
      const version = await getVersion(host, name, link.version);
      viewing = { version, isLatest: version.hash === skill.version?.hash };
    } catch (e) {
      if (!(e instanceof StagecraftError)) throw e;
      problems.push(`?version=${link.version}: ${e.message} Showing the latest version.`);
    }
  }
  const [versions, knownSkills] = await Promise.all([listVersions(host, name), host.skills.skillNames()]);
  const openai = { configured: Boolean(process.env.STAGECRAFT_MODEL_BASE_URL), model: process.env.STAGECRAFT_MODEL || null };
  const files = (viewing?.version ?? skill.version)?.files ?? {};
  const { reveal, problems: revealProblems } = revealIn(link, files);
  problems.push(...revealProblems);
  return (
    <Studio
      key={`${name}@${viewing?.version.hash ?? 'latest'}`}
      skill={skill}
      versions={versions}
      knownSkills={knownSkills}
      openai={openai}
      now={Date.now()}
      viewing={viewing}
      reveal={reveal}
      linkProblems={problems}
    />
  );
});
