/**
 * The evidence of a run: the text of every tool outcome recorded so far — what
 * post-model stages check a finish against (e.g. numbers that appear in no
 * outcome). One reading of the log, shared by the kernel (which keeps it as it
 * records) and the fold (which rebuilds the post-model context from it).
 *
 * The rule: every `ok` tool step, in the order recorded, counted once at its
 * last record — a world read re-executed on resume replaces its earlier record
 * and moves to where it was recorded again. A step answered from the log on
 * resume is already in it, so replaying changes nothing.
 *
 * Owns: that rule. Does not: decide what a stage does with it.
 */
import { EVENT } from './events';
import type { Json, JsonObject } from './json';

export function evidenceText(output: Json): string {
  return typeof output === 'string' ? output : JSON.stringify(output);
}

/** the position of a step event that is evidence (an ok tool step), else null */
export function evidencePosition(e: { type: string; data: JsonObject }): string | null {
  if (e.type !== EVENT.stepCompleted || e.data.kind !== 'tool' || e.data.status !== 'ok') return null;
  return String(e.data.position);
}

export class Evidence {
  private readonly byPosition = new Map<string, string>();

  static fromLog(log: readonly { type: string; data: JsonObject }[]): Evidence {
    const ev = new Evidence();
    for (const e of log) {
      const p = evidencePosition(e);
      if (p !== null) ev.record(p, (e.data.output ?? null) as Json);
    }
    return ev;
  }

  record(position: string, output: Json): void {
    this.byPosition.delete(position);
    this.byPosition.set(position, evidenceText(output));
  }

  list(): string[] {
    return [...this.byPosition.values()];
  }
}
