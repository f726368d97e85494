/**
 * Where a recorded result came from: executed where it is recorded, or
 * answered from the log by a later resume (which replays the steps it
 * re-enters without recording them again); and the bundle folders a run
 * executed from, whose paths the views show relative.
 *
 * Owns: that reading of resumes. Does not: decide what a resume runs (runner.ts).
 */
import { POST_PHASE } from './plan';
import { EXECUTES_FROM } from './events';
import type { RunEvent } from './ports';
import { valueAt, visitKeyOf, type RunFold } from './fold';

/**
 * the folders the run's plan ran from: the start's, a queued run's admission's (a worker admits it
 * from a copy of its own) and any a resume ran from
 */
export function bundleRoots(fold: RunFold): string[] {
  return fold.bundleDirs;
}

/** the same, read from a run's log where no fold is at hand */
export function bundleRootsOf(events: readonly RunEvent[]): string[] {
  const out: string[] = [];
  for (const e of events) if (EXECUTES_FROM.has(e.type) && typeof e.data.bundleDir === 'string') out.push(e.data.bundleDir);
  return out;
}

/**
 * Steps a resume answered from the log: on resume r (re-entering visit or postprocessor P), every
 * step recorded under P before r, not recorded again, that the resumed execution went past (it
 * replays in order: past the earliest-recorded step it recorded anew, or everything when it reached
 * new ground). Maps the step's seq to r.
 */
export function answeredFromLog(fold: RunFold): Map<number, number> {
  const out = new Map<number, number>();
  fold.resumes.forEach((r, i) => {
    const until = fold.resumes[i + 1]?.seq ?? fold.lastSeq + 1;
    const resume = valueAt(fold.resumeStates, r.seq, null);
    if (!resume) return;
    const visits = (resume.data.visits ?? {}) as Record<string, number>;
    const prefix = resume.currentPhase === POST_PHASE ? `${POST_PHASE}/` : `${visitKeyOf(resume.currentPhase, (visits[resume.currentPhase] ?? 0) + 1)}/`;
    let frontier = 0;
    const again = new Set<string>();
    for (let seq = r.seq + 1; seq < until; seq++) {
      const e = fold.events[seq - 1];
      if (e.type !== 'step_completed') {
        if (e.type === 'phase_completed' || e.type === 'artifact_persisted' || e.type.startsWith('run_')) frontier = Number.MAX_SAFE_INTEGER;
        continue;
      }
      const position = String(e.data.position);
      const first = fold.records.get(position)?.find((x) => x.seq < r.seq);
      if (first) again.add(position);
      frontier = Math.max(frontier, first ? first.seq : Number.MAX_SAFE_INTEGER);
    }
    for (const [position, recs] of fold.records) {
      if (!position.startsWith(prefix) || again.has(position)) continue;
      const before = recs.filter((x) => x.seq < r.seq);
      const last = before[before.length - 1];
      if (last && last.seq < frontier) out.set(last.seq, r.seq);
    }
  });
  return out;
}
