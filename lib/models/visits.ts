/**
 * Which visit of its phase a model request belongs to — the third coordinate,
 * after (phase, round), of the position the scripted and replay models serve
 * turns by.
 *
 * Owns: deriving the visit. A request that carries `visit` (1-based) is taken
 * at its word; that is the robust source, since the kernel knows it. Otherwise
 * the visit is inferred per run from the requests seen: a request for a phase
 * other than the previous request's starts a new visit of that phase, and so
 * does a round lower than the previous round of the same phase (a phase that
 * is its own successor).
 *
 * Invariant: the first visit of every phase is purely positional — no state is
 * needed to serve it, so a resumed run (whose earlier turns are memoized and
 * never asked again) gets the same turns. Only a later visit of a phase needs
 * the inference, and that inference cannot see visits a previous process
 * served: a run resumed inside a second visit needs `visit` on the request.
 *
 * Does not: pick turns (scripted.ts, replay.ts do), or persist anything.
 */
import type { ModelRequest } from '../kernel/ports';
import { ModelError } from '../kernel/errors';

/** A model request, optionally with the visit of its phase (1-based) when the caller knows it. */
export type PositionedRequest = ModelRequest & { visit?: number };

export type Position = { phase: string; round: number; visit: number };

type RunState = { phase: string; round: number; visits: Map<string, number> };

export type VisitTracker = { positionOf(req: PositionedRequest): Position };

export function createVisitTracker(): VisitTracker {
  const runs = new Map<string, RunState>();
  return {
    positionOf(req) {
      if (!Number.isInteger(req.round) || req.round < 1) {
        throw new ModelError('model_bad_request', `Model request for phase ${req.phase} has round ${String(req.round)}; rounds are integers from 1. This is a kernel bug: report it with the run id ${req.runId}.`, { phase: req.phase, runId: req.runId });
      }
      let run = runs.get(req.runId);
      if (!run) {
        run = { phase: req.phase, round: req.round, visits: new Map([[req.phase, 1]]) };
        runs.set(req.runId, run);
      } else if (run.phase !== req.phase || req.round < run.round) {
        run.visits.set(req.phase, (run.visits.get(req.phase) ?? 0) + 1);
      }
      if (req.visit !== undefined) {
        if (!Number.isInteger(req.visit) || req.visit < 1) {
          throw new ModelError('model_bad_request', `Model request for phase ${req.phase} has visit ${String(req.visit)}; visits are integers from 1.`, { phase: req.phase, runId: req.runId });
        }
        run.visits.set(req.phase, req.visit);
      }
      run.phase = req.phase;
      run.round = req.round;
      return { phase: req.phase, round: req.round, visit: run.visits.get(req.phase) ?? 1 };
    },
  };
}
