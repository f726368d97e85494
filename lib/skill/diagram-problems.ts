/**
 * Diagnostics → diagram nodes: each finding of skill.md is attached to the
 * nodes and items its key path is about, so the diagram marks what is wrong
 * where it is drawn.
 *
 * Owns: the attachment rules — `graph.P…`/`phases.P…` → phase P (a
 * successor `graph.P[i]` → also the phase it names; a preprocessor step → the
 * step, its enclosing steps and the phase), `postprocessor.steps[i]…` → that
 * step (nested: the nested item and its enclosing steps), any other
 * `postprocessor…` → the caller contract, `capabilities[i]…` → that stage,
 * `entry` → the entry phase, `final_output`/`output_schema` (and a missing
 * LLM contract) → the terminal phases, plus the caller contract when there is
 * no postprocessor (it is then the LLM contract), no terminal phase → the
 * caller contract (no phase reaches it), `artifacts.A…` → every
 * phase, contract and validate step that names A. Whatever attaches nowhere
 * is returned as unplaced. Does not: judge severity (a warning is listed but
 * marks nothing invalid; diagram.ts decides that).
 */
import type { Diagnostic } from '../kernel/errors';
import type { Build, NodeProblem } from './diagram-types';
import { arr, obj } from './frontmatter';
import type { KeyPath } from './source';
import { parsePath } from './source';

/** The innermost existing step item of a path whose `from`th segment is a step index (`…steps[i].steps[j]…`). */
function stepAt(b: Build, head: string, path: KeyPath, from: number): string | undefined {
  let found: string | undefined;
  let number = '';
  for (let i = from; typeof path[i] === 'number'; i += 2) {
    number = number ? `${number}/${path[i]}` : String(path[i]);
    if (!b.targets.has(`${head}${number}`)) break;
    found = `${head}${number}`;
    if (path[i + 1] !== 'steps') break;
  }
  return found;
}

function targetsOf(b: Build, d: Diagnostic): string[] {
  const contractIfLlm = b.hasPostprocessor ? [] : ['contract'];
  if (d.rule === 'missing_final_output') return [...b.terminalIds, ...contractIfLlm];
  // no phase ends the run: the caller contract is the card no phase reaches
  if (d.rule === 'no_terminal_phase') return ['contract'];
  const path = parsePath(d.path);
  const [top, key] = path;
  switch (top) {
    case 'graph': {
      if (typeof key !== 'string') return [];
      const successor = typeof path[2] === 'number' ? arr(obj(b.fm.graph)[key])[path[2]] : undefined;
      return typeof successor === 'string' ? [`phase:${key}`, `phase:${successor}`] : [`phase:${key}`];
    }
    case 'phases': {
      if (typeof key !== 'string') return [];
      const step = path[2] === 'preprocessor' && path[3] === 'steps' ? stepAt(b, `pre:${key}:`, path, 4) : undefined;
      return [step ?? `phase:${key}`];
    }
    case 'postprocessor':
      return [(key === 'steps' ? stepAt(b, 'post:', path, 2) : undefined) ?? 'contract'];
    case 'capabilities':
      return typeof key === 'number' ? [`cap:${key}`] : [];
    case 'entry':
      return b.entryId ? [b.entryId] : [];
    case 'final_output':
    case 'output_schema':
      return [...b.terminalIds, ...contractIfLlm];
    case 'artifacts':
      return typeof key === 'string' ? [...(b.artifactUsers.get(key) ?? [])] : [];
    default:
      return [];
  }
}

/** Attaches every diagnostic to its nodes (in `b.targets`); returns those that attach nowhere. */
export function placeProblems(b: Build, diagnostics: readonly Diagnostic[]): NodeProblem[] {
  const unplaced: NodeProblem[] = [];
  for (const d of diagnostics) {
    const problem: NodeProblem = { severity: d.severity, rule: d.rule, message: d.message, line: d.line, column: d.column, path: d.path };
    const marked = new Set<string>();
    for (const id of targetsOf(b, d)) {
      const target = b.targets.get(id);
      if (!target) continue;
      marked.add(id);
      for (const also of target.alsoMarks) marked.add(also);
    }
    if (marked.size === 0) unplaced.push(problem);
    for (const id of marked) b.targets.get(id)?.marked.problems.push(problem);
  }
  return unplaced;
}
