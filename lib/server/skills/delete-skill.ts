/**
 * Deleting a skill (`DELETE /api/skills/<name>`): it leaves the list and its
 * name is free again, but its versions stay, so every run of it can still be
 * inspected, replayed and exported with the exact bundle it ran.
 */
import type { Host } from '../host';

export async function deleteSkill(host: Pick<Host, 'skills'>, name: string): Promise<void> {
  await host.skills.deleteSkill(name);
}
