/**
 * The value of a processor chain at a point of the log, as the kernel held it:
 * each step's result entered by the kernel's own rule (`mergeResult`, or what
 * an on_error branch wrote). A chain a resume re-entered is replayed in chain
 * order from the latest record of each step, as the resumed execution did.
 *
 * Owns: chain values. Does not: index records (fold.ts).
 */
import type { ProcessorStepData } from './events';
import type { JsonObject } from './json';
import { isJsonObject } from './json';
import { mergeResult } from './processors';
import type { ChainRec, ChainStepRec } from './fold';
import { countAt } from './fold-lists';

/** the value a chain holds after its latest step */
export function currentValue(chain: ChainRec): JsonObject {
  return chainValueAt(chain, Number.MAX_SAFE_INTEGER).value;
}

/** the chain's value at seq k (its start before its first step), and the last step recorded by then */
export function chainValueAt(chain: ChainRec, k: number): { value: JsonObject; step: ChainStepRec | null } {
  const n = countAt(chain.steps, k);
  const step = n > 0 ? chain.steps[n - 1] : null;
  // from a fork's edit of a step's input (its fork_point_reached) until that step, the edit is the chain's value
  const edit = chain.forkInput;
  if (edit && edit.seq <= k && (!step || step.data.index < edit.index) && !chain.replayed) return { value: edit.value, step };
  if (!step) return { value: chain.start, step };
  return { value: chain.replayed ? replayValue(chain, k + 1, Number.MAX_SAFE_INTEGER) : step.after, step };
}

/** How a step's record changes the chain's value: the kernel's merge, or what its on_error branch wrote. */
export function applyStepResult(before: JsonObject, d: ProcessorStepData): JsonObject {
  const def = isJsonObject(d.definition) ? d.definition : {};
  const into = typeof def.into === 'string' ? def.into : null;
  if (d.status === 'ok') {
    try {
      return mergeResult(before, { type: d.type, into }, d.output);
    } catch {
      return before;
    }
  }
  if (d.status === 'empty' && into) return { ...before, [into]: d.empty ?? null };
  return before;
}

/**
 * The value after the steps of the chain before `index`, each at its latest record before seq: what a
 * resumed execution holds, having replayed the recorded steps in chain order (and re-run the ones
 * it recorded again).
 */
export function replayValue(chain: ChainRec, beforeSeq: number, index: number): JsonObject {
  const latest = new Map<number, ChainStepRec>();
  for (const s of chain.steps) if (s.seq < beforeSeq && s.data.index < index) latest.set(s.data.index, s);
  // a fork's edited input of a step replaces what the steps before it made
  const edit = chain.forkInput && chain.forkInput.index <= index ? chain.forkInput : null;
  let value = edit ? edit.value : chain.start;
  for (const i of [...latest.keys()].sort((a, b) => a - b)) if (!edit || i >= edit.index) value = applyStepResult(value, latest.get(i)!.data);
  return value;
}

