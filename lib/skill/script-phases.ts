/**
 * A model script (model.yaml) against the skill's phase graph, for the studio's Run panel: a script
 * whose turns name phases the skill does not have (a phase renamed in skill.md, the blank template's
 * `answer` kept in model.yaml) fails a run at its first model turn while skill.md itself is valid.
 *
 * Owns: the one sentence that says so, or null. Deliberately not a validator finding: a run may use
 * another model, and Problems is skill.md's. Does not: pick turns (lib/models/scripted.ts) or say
 * what is wrong inside a malformed script (a run loading it says that, located).
 */
import { parseModelScript } from '../models/model-script';

const list = (xs: string[]) => xs.map((x) => `\`${x}\``).join(', ');

export function scriptPhaseGap(text: string, file: string, graph: { entry: string | null; phases: string[] }): string | null {
  if (!graph.phases.length) return null;
  let blocks;
  try {
    blocks = parseModelScript(text, file).blocks;
  } catch {
    return null;
  }
  const scripted = [...new Set(blocks.map((b) => b.phase).filter((p): p is string => p !== null))];
  // a block of no phase serves any phase the script does not name
  const servesAny = blocks.some((b) => b.phase === null);
  const { entry } = graph;
  if (entry && graph.phases.includes(entry) && !servesAny && !scripted.includes(entry)) {
    return `${file} has no turns for the entry phase \`${entry}\`${scripted.length ? ` (only for ${list(scripted)})` : ''}: a run with it fails at its first model turn. Add turns with \`phase: ${entry}\` to ${file}, or pick another model.`;
  }
  const stray = scripted.filter((p) => !graph.phases.includes(p));
  if (stray.length) return `${file} has turns for ${list(stray)}, not ${stray.length === 1 ? 'a phase' : 'phases'} of this skill: a run never reaches them.`;
  return null;
}
