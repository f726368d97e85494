// Positions of a run as its page's view (RunView) knows them: where it is rerun from (the server's
// answer, RunView.rerunFrom), and the points a fork can start from that the view names. The inspector's timeline knows every position; this is
// what the plain run page can offer (any other position may still be typed).
import { FORK_POINT_FINISH, FORK_POINT_INPUT, type RunView } from '@/lib/views';

/** the take-on box's words: a failed step, or a phase whose finish its contract refused (no step to point at) */
export type RerunWords = {
  title: string;
  /** the sentence around the point's name: before it, after it */
  where: [string, string];
  /** what `Rerun from here` does, after "then" */
  rerun: string;
  /** what is answered from the recording, and what no model is called for */
  before: string;
  forWhat: string;
  /** where to read why it stopped, when no sentence names what stopped it (a step's failure names itself) */
  why: string;
};

export const RERUN_WORDS: Record<'step' | 'phase', RerunWords> = {
  step: { title: 'Take it on from the failed step', where: ['It failed at ', '.'], rerun: 'rerun from that step', before: 'the steps before it are', forWhat: 'them', why: '' },
  // the phase as a whole stopped: said as what happened, not as a step the box cannot name
  phase: {
    title: 'Take it on from the phase it stopped in',
    where: ['Phase ', ' did not finish, though none of its steps failed.'],
    rerun: 'rerun that phase from its start',
    before: 'what came before it is',
    forWhat: 'it',
    why: 'The run report above says why it stopped.',
  },
};

/** where a failed run is taken on from: `Rerun from here`'s point, `Fork from here`'s, the words for it,
 * and what stopped the run there when no step did (a contract), in a sentence (null: the words say it);
 * `place` and `visit`: the point as the page says it (pointPlace) */
export type RerunPoint = { at: string; forkAt: string; words: RerunWords; stoppedBy: string | null; place: string; visit: string | null };

/** `2nd`, `3rd`, `11th`, `21st` */
function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${suffix}`;
}

/**
 * A phase point as people read it: `draft#2` (the phase's second visit, which a rerun must take on)
 * is the phase `draft` on its `2nd visit`. The runs list counts a run stopped there at `draft` — its
 * "Failed at" groups failures by place, not by visit — so the page names the same place and says
 * the visit beside it, rather than a `draft#2` the list never shows. A step's position, or a first
 * visit, is the point itself.
 */
export function pointPlace(at: string): { place: string; visit: string | null } {
  const m = /^([^/#]+)#(\d+)$/.exec(at);
  if (!m || Number(m[2]) < 2) return { place: at, visit: null };
  return { place: m[1], visit: `${ordinal(Number(m[2]))} visit` };
}

/**
 * What stopped a run at a phase, when no step did: the model contract (the phase's finish refused
 * after its retry), its max_rounds used up, or the skill's contract (a processor chain's or the caller's schema). Said so a
 * step whose failure an iterate skipped earlier is not taken for the cause. Null for other ends.
 */
export function stoppedByWords(run: Pick<RunView, 'error' | 'report'>, at: string): string | null {
  if (at.includes('/')) return null;
  if (run.error?.code === 'output_invalid') return "The model contract stopped it: the phase's finish artifact did not satisfy its output schema, after one retry.";
  if (run.error?.code === 'max_rounds_exceeded') return 'It ran out of model rounds: the model did not finish the phase within its max_rounds.';
  if (run.report?.aborted_by?.by === 'contract') return "The skill's contract stopped it: a value broke its schema.";
  return null;
}

/**
 * The rerun point of a run's page — the server's (RunView.rerunFrom: the point a fork with none
 * named takes), never one of the page's own — or null when the server names none (a completed run,
 * one aborted on request). A step's position names its phase and more (`draft/r2/model`,
 * `__post__/0`), a phase's does not (`draft`, `draft#2`, `__post__`). `Fork from here` opens on a
 * failed processor step's input — a nested one's too (`__post__/0/1/0`: the view lists only a chain's own steps) — (what it was given; its recorded result is the error), else on the
 * point itself (a model turn, a tool outcome, a stage's contribution: a value to put in its place).
 */
export function rerunPointOf(run: Pick<RunView, 'status' | 'rerunFrom' | 'steps'> & Partial<Pick<RunView, 'error' | 'report'>>): RerunPoint | null {
  if (run.status !== 'failed' && run.status !== 'aborted') return null;
  const at = run.rerunFrom ?? null;
  if (!at) return null;
  // a step nested in one the view lists (a step of an iterate's chain, at any depth) is a processor step too
  const isStep = run.steps.some((s) => at === s.position || at.startsWith(`${s.position}/`));
  const stoppedBy = stoppedByWords({ error: run.error ?? null, report: run.report ?? null }, at);
  return { at, forkAt: isStep ? `${at}/input` : at, words: at.includes('/') ? RERUN_WORDS.step : RERUN_WORDS.phase, stoppedBy, ...pointPlace(at) };
}

/** fork points the view names: the run input, each phase, the finish artifact, each processor step and what it was given */
export function forkPositions(run: Pick<RunView, 'steps' | 'traces' | 'status'>): string[] {
  const phases = [...new Set([...run.traces.map((t) => t.phase), ...run.steps.map((s) => s.phase)])].filter((p) => p !== FORK_POINT_FINISH);
  const steps = run.steps.flatMap((s) => [s.position, `${s.position}/input`]);
  const post = run.status === 'completed' || run.steps.some((s) => s.phase === FORK_POINT_FINISH) ? [FORK_POINT_FINISH] : [];
  return [FORK_POINT_INPUT, ...phases, ...post, ...steps];
}

/**
 * The fork point's hint, its examples of a step taken from the run's own positions (a phase's step, a
 * postprocessor step): `draft/r2/model` was said of runs with no `draft` phase.
 */
export function forkPointHint(positions: readonly string[]): string {
  const isStep = (p: string) => p.includes('/') && !p.endsWith('/input');
  const post = `${FORK_POINT_FINISH}/`;
  const examples = [positions.find((p) => isStep(p) && !p.startsWith(post)), positions.find((p) => isStep(p) && p.startsWith(post))].filter((p) => p !== undefined);
  return `input, a phase name, __post__ (the finish artifact), a step${examples.length ? ` (${examples.join(', ')})` : ''}, or a step's /input`;
}

/**
 * Said in the take-on box once a fork from its point (a rerun, or one with an edit) has completed (newest first in derivedRuns):
 * the box still offers Rerun, but a user back on the failed run should not pay for it twice. The
 * rerun itself is linked under Replays and forks, not here (one link per run on the page).
 */
export function rerunDoneNote(run: Partial<Pick<RunView, 'derivedRuns'>>, at: string): string | null {
  const done = (run.derivedRuns ?? []).find((d) => d.kind === 'fork' && d.forkPoint === at && d.status === 'completed');
  return done ? 'A fork from here has completed since: it is under Replays and forks below.' : null;
}
