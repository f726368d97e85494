/**
 * The step a user's abort cut short, as the run's error names it (`cutShort`, kernel runner.ts):
 * read back from an error of any shape, and said in words for the run page and the CLI. A step
 * is recorded only when it ends, so this is the one record of where an aborted run was.
 */
export type CutShortView = { position: string; kind: string; ranMs: number };

/** the step cut short named in a run's error, or null (an error without one, or not an abort's); read by hand: the CLI's `run` and `resume` load no zod */
export function cutShortOf(error: unknown): CutShortView | null {
  const c = error && typeof error === 'object' ? (error as { cutShort?: unknown }).cutShort : null;
  if (!c || typeof c !== 'object') return null;
  const { position, kind, ranMs } = c as Record<string, unknown>;
  return typeof position === 'string' && typeof kind === 'string' && typeof ranMs === 'number' ? { position, kind, ranMs } : null;
}

/** "1.2 s", "3 min 4 s": how long a finished run (or a step) took */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const totalS = Math.round(ms / 1000);
  const m = Math.floor(totalS / 60);
  if (m < 60) return `${m} min ${totalS % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

const KIND_WORDS: Record<string, string> = { model: 'model call', tool: 'tool call', stage: 'stage', processor: 'step' };

/** "step __post__/0 had run 5.8 s", "model call draft/r1/model had run 40 s" */
export function cutShortWords(c: CutShortView): string {
  return `${KIND_WORDS[c.kind] ?? c.kind} ${c.position} had run ${formatDuration(c.ranMs)}`;
}
