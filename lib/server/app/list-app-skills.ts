/**
 * The app's skills list (the home page, `GET /api/skills`): it waits for the example skills the
 * boot is loading (boot.ts), so a request that comes in while the server starts never lists them
 * missing; how their loading went comes with it, for the home page to say when it failed.
 */
import type { SkillView } from '../../views';
import { listSkills } from '../skills/list-skills';
import { appHost } from './app-host';
import { examplesLoaded, type ExamplesLoad } from './boot';

export async function listAppSkills(): Promise<{ skills: SkillView[]; examples: ExamplesLoad | null }> {
  const [host, examples] = await Promise.all([appHost(), examplesLoaded()]);
  return { skills: await listSkills(host), examples };
}
