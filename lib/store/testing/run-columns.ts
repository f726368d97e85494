/**
 * The runs table's generated columns `failed_at` and `needs_attention`, read
 * in TypeScript from a run record, for the in-memory host (MemorySkillRepo's
 * `lastRun`). The rules are the SQL functions `stagecraft_run_failed_at` and
 * `stagecraft_run_needs_attention` (prisma/migrations: *_run_inspector_index,
 * *_failed_at_phase_stopped), restated line for line; the SkillRepo contract
 * (skills-contract.ts) holds both hosts to the same answers.
 *
 * Reads the run's recorded status, report and error only, as the columns do —
 * not `report.needs_attention`, which a report exported before that field
 * existed (an imported run) does not have.
 */
import type { JsonObject } from '../../kernel/json';
import { isJsonObject } from '../../kernel/json';
import type { RunRecord } from '../../kernel/ports';

type Recorded = Pick<RunRecord, 'status' | 'report' | 'error'>;

/** `->> key`: a JSON object's field as text (null when absent or null; objects and arrays as JSON) */
function text(o: unknown, key: string): string | null {
  if (!isJsonObject(o)) return null;
  const v = (o as JsonObject)[key];
  if (v === undefined || v === null) return null;
  return typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
}

const field = (o: unknown, key: string): unknown => (isJsonObject(o) ? (o as JsonObject)[key] : undefined);

/** `a || '/' || b`: null when either is */
const joined = (a: string | null, b: string | null): string | null => (a === null || b === null ? null : `${a}/${b}`);

/** stagecraft_run_failed_at: where the run failed, as the runs list's "Failed at" says it */
export function runFailedAt(run: Recorded): string | null {
  const { report, error } = run;
  const stage = field(report, 'failed_stage');
  const stepAt = (): string | null => {
    const step = text(error, 'step');
    if (text(error, 'stepType') === null || step === null) return null;
    return text(error, 'phase') === '__post__' ? `__post__/${step}` : joined(text(error, 'phase'), `pre/${step}`);
  };
  const stoppedIn = (): string | null => {
    if (text(error, 'requestedBy') !== null) return null;
    if (text(field(report, 'aborted_by'), 'by') === 'request') return null;
    if ((text(error, 'message') ?? '').startsWith('aborted on request')) return null;
    return text(error, 'position') ?? text(error, 'phase');
  };
  return (
    text(field(report, 'failed_step'), 'position') ??
    joined(text(stage, 'capability'), text(stage, 'stage')) ??
    stepAt() ??
    joined(text(error, 'capability'), text(error, 'stage')) ??
    stoppedIn()
  );
}

/** stagecraft_run_needs_attention: failed; or aborted or blocked, unless a user asked for the abort */
export function runNeedsAttention(run: Recorded): boolean {
  if (run.status === 'failed') return true;
  const stopped = run.status === 'aborted' || text(run.report, 'outcome') === 'blocked';
  return stopped && text(run.error, 'requestedBy') !== 'user';
}
