/** Human-readable output of the CLI (the `--json` forms print the objects as they are). */
import type { RunSummary } from '../lib/server/runs/run-summary';
import type { Io } from './main';

export function printSummary(s: RunSummary, io: Io): void {
  io.out(`run ${s.runId}: ${s.status}`);
  const r = s.report as { outcome?: string; block_reason?: string | null; failed_stage?: { stage: string; rung: string; phase: string } | null } | null;
  if (r) {
    io.out(`outcome: ${r.outcome}${r.block_reason ? ` — ${r.block_reason}` : ''}`);
    if (r.failed_stage) io.out(`failed stage: ${r.failed_stage.stage} (${r.failed_stage.rung}, phase ${r.failed_stage.phase})`);
  }
  if (s.error) io.out(`error [${String(s.error.code)}]: ${String(s.error.message)}`);
  if (s.output !== null && s.output !== undefined) io.out(JSON.stringify(s.output, null, 2));
}
