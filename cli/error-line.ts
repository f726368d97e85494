/** What the CLI says on stderr for an error that ended a command (or, with several runs, one run's replay). */
import { SkillMismatchError, SkillNotFoundError, StagecraftError, VersionNotFoundError } from '../lib/kernel/errors';

/**
 * a StagecraftError's message says what happened and what to do; anything else is a bug, with its stack.
 * `said`: the error as inCliWords gave it (the caller has it for the JSON too).
 */
export function errorLine(said: unknown): string {
  if (said instanceof StagecraftError) return said.message;
  return `internal error: ${said instanceof Error ? (said.stack ?? said.message) : String(said)}`;
}

/**
 * The same error in the command line's words where the kernel's speak HTTP (an API route to call):
 * what to do names what the CLI and the app offer. Its code and details stay as they are.
 */
export function inCliWords(e: unknown): unknown {
  if (e instanceof SkillNotFoundError) {
    return new SkillNotFoundError(String(e.details.skill), "Check the name: the app's home page lists the skills, and `stagecraft push DIR` saves a folder as one.");
  }
  if (e instanceof VersionNotFoundError) {
    const skill = String(e.details.skill);
    const how =
      e.details.version === '-'
        ? `\`stagecraft push DIR\` saves a folder as its first version.`
        : `Use a hash that \`stagecraft versions ${skill}\` lists (or \`stagecraft push\` printed), or leave --version out for the latest.`;
    return new VersionNotFoundError(skill, String(e.details.version), e.why, how);
  }
  if (e instanceof SkillMismatchError && e.details.ownFolder === true) {
    const d = e.details as { runId: string; skill: string; folder: string; folderSkill: string; recordedVersion?: string };
    const folder = `--skill DIR with a folder of ${JSON.stringify(d.skill)} (\`stagecraft pull ${d.skill} DIR\` writes one)`;
    const how = d.recordedVersion
      ? `Pass --version ${d.recordedVersion.slice(0, 12)} to use the version the run recorded, or ${folder}.`
      : `Pass --version HASH of one of its versions (\`stagecraft versions ${d.skill}\` lists them), or ${folder}.`;
    return new SkillMismatchError(d.runId, d.skill, d.folder, d.folderSkill, { hash: d.recordedVersion ?? null, how });
  }
  return e;
}
