/**
 * Whether the home page greets a newcomer: skills are there (the examples, just loaded) and none
 * has run yet. The greeting names no skill: a second link or text with a skill's name beside the
 * table's own would make the page's names ambiguous.
 */
export function isFirstVisit(skills: readonly { lastRun: unknown }[]): boolean {
  return skills.length > 0 && skills.every((s) => !s.lastRun);
}
