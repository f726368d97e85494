/**
 * The replay model: serves the model turns a run recorded, by position
 * (phase, round, visit of the phase), so a replay or fork makes zero model
 * calls.
 *
 * Owns: the lookup. Asked for a position nothing was recorded at, it fails
 * with `replay_no_recorded_turn` — a replay that needs a turn the run never
 * had has diverged, and making one up would hide that.
 *
 * Does not: read the store or decode events (the kernel hands it the turns
 * from the run's `step_completed` model events), or compare anything.
 */
import type { ModelPort, ModelTurn } from '../kernel/ports';
import { ModelError } from '../kernel/errors';
import { createVisitTracker, type PositionedRequest } from './visits';

export type RecordedTurn = { phase: string; round: number; /** default 1 */ visit?: number; turn: ModelTurn };

/** The key of a position: `draft/r2`, or `draft#2/r1` for the second visit of `draft`. */
export function positionKey(phase: string, round: number, visit = 1): string {
  return `${visit === 1 ? phase : `${phase}#${visit}`}/r${round}`;
}

export function createReplayModel(
  recorded: RecordedTurn[] | ReadonlyMap<string, ModelTurn> | Record<string, ModelTurn>,
  opts: { name?: string } = {},
): ModelPort & { invoke(req: PositionedRequest): Promise<ModelTurn> } {
  const turns = new Map<string, ModelTurn>();
  if (Array.isArray(recorded)) {
    for (const r of recorded) {
      const key = positionKey(r.phase, r.round, r.visit ?? 1);
      if (turns.has(key)) {
        throw new ModelError('replay_duplicate_turn', `Two recorded model turns at ${key}; the run's event log is inconsistent.`, { position: key });
      }
      turns.set(key, r.turn);
    }
  } else {
    for (const [key, turn] of recorded instanceof Map ? recorded : Object.entries(recorded)) turns.set(key, turn);
  }
  const visits = createVisitTracker();
  return {
    name: opts.name ?? 'replay',
    local: true,
    async invoke(req) {
      const { phase, round, visit } = visits.positionOf(req);
      const key = positionKey(phase, round, visit);
      const turn = turns.get(key);
      if (!turn) {
        throw new ModelError(
          'replay_no_recorded_turn',
          `The replayed run asked the model for ${key}, but the recorded run has no model turn there: the replay diverged from the recording ` +
            '(the skill now takes a different path). Compare the skill versions, or fork the run to continue it live.',
          { phase, round, visit, position: key, runId: req.runId },
        );
      }
      return structuredClone(turn);
    },
  };
}
