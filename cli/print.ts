/** Human-readable output of the CLI (the `--json` forms print the objects as they are). */
import { format as formatPatch } from 'jsondiffpatch/formatters/jsonpatch';
import type { RunSummary } from '../lib/server/runs/run-summary';
import type { Io } from './main';
import { counted, plural } from '../lib/kernel/plural';
import { cutShortOf, cutShortWords } from '../lib/views/cut-short';
import { shellWord } from '../lib/kernel/shell-word';
import { printedText } from '../lib/kernel/error-info';
import { readableText } from '../lib/kernel/terminal-text';
import { eventSummary } from '../lib/kernel/summaries';
import type { JsonObject } from '../lib/kernel/json';
import type { ForkVersionFrom } from '../lib/server/runs/fork-run';
import path from 'node:path';

export function printSummary(s: RunSummary, io: Io): void {
  io.out(`run ${s.runId}: ${s.status}`);
  const r = s.report as {
    outcome?: string;
    block_reason?: string | null;
    failed_stage?: { stage: string; rung: string; phase: string } | null;
    error?: { message: string; stack: string | null } | null;
    aborted_by?: { by: string; reason?: string; requestedBy?: string } | null;
  } | null;
  const asked = r?.aborted_by?.by === 'request' ? r.aborted_by : null;
  // the error line below says it: a block reason that is the same words is not said twice
  const errorSaid = s.error ? (r?.error ? r.error.message : String(s.error.message)) : null;
  const reason = r?.block_reason && r.block_reason.trim() !== errorSaid?.trim() ? ` — ${r.block_reason}` : '';
  if (asked) {
    // an abort someone asked for is not a block: the app's words for it, and README's (it needs no attention)
    const why = asked.reason?.trim() ? `: ${asked.reason.trim()}` : '';
    io.out(`outcome: aborted on request by ${asked.requestedBy ?? 'unknown'}${why} (does not need attention)`);
    // the step in flight then: a step is recorded only when it ends, so nothing else names it
    const cut = cutShortOf(s.error);
    if (cut) io.out(`cut short: ${cutShortWords(cut)} (nothing of it is recorded)`);
  } else if (r) {
    io.out(`outcome: ${r.outcome}${reason}`);
    if (r.failed_stage) io.out(`failed stage: ${r.failed_stage.stage} (${r.failed_stage.rung}, phase ${r.failed_stage.phase})`);
  }
  if (s.error) {
    // the report's words for the error: the bundle's files by their names, not the data dir's copy of it;
    // its stack once (the block reason above may have said it already)
    const said = r?.error ?? null;
    io.out(`error [${String(s.error.code)}]: ${errorSaid}`);
    const stack = said?.stack?.trimEnd();
    if (stack && !(r?.block_reason ?? '').includes(stack)) io.out(stack);
  }
  if (s.output !== null && s.output !== undefined) io.out(JSON.stringify(s.output, null, 2));
}

/**
 * What a fork answered from its parent's recording, not run again (the report's `reused`), and that
 * the rest ran: `reused from run_a's recording (not run again): 2 model turns, 1 processor step; the rest ran live`.
 */
export function reusedLine(report: unknown, parentRunId: string): string {
  const r = (report as { reused?: Record<'model' | 'tool' | 'stage' | 'processor', number> } | null)?.reused;
  const parts = r
    ? [plural(r.model, 'model turn'), plural(r.tool, 'tool call'), plural(r.stage, 'stage'), plural(r.processor, 'processor step')].filter((_, i) => [r.model, r.tool, r.stage, r.processor][i] > 0)
    : [];
  if (!parts.length) return `nothing was reused from ${parentRunId}'s recording: every step ran live`;
  return `reused from ${parentRunId}'s recording (not run again): ${parts.join(', ')}; the rest ran live`;
}

/** One value on one line, cut at `max` characters. */
export function oneLine(v: unknown, max = 100): string {
  const s = v === undefined ? '(nothing)' : JSON.stringify(v);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

function atPointer(v: unknown, pointer: string): unknown {
  let cur = v;
  for (const raw of pointer.split('/').slice(1)) {
    const k = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    cur = cur !== null && typeof cur === 'object' ? (cur as Record<string, unknown>)[k] : undefined;
  }
  return cur;
}

/**
 * A divergence's diff as lines: `~ /path: old → new`, `+ /path: new`, `- /path` (a JSON Patch of the delta).
 * `said`: a side's value in words where it says nothing of the step (DivergenceSide.said: a validate that
 * passed records null), shown in place of that null when the whole value changed.
 */
export function diffLines(diff: unknown, before: unknown, said: { before?: string; after?: string } = {}): string[] {
  if (diff === null || diff === undefined) return [];
  const ops = formatPatch(diff as Parameters<typeof formatPatch>[0]);
  // jsondiffpatch matches array items by value: a changed item is its removal and an insertion at the same index
  const merged = ops.flatMap((op, i) => {
    const next = ops[i + 1];
    if (op.op === 'remove' && next?.op === 'add' && next.path === op.path) return [{ op: 'replace' as const, path: op.path, value: next.value }];
    const prev = ops[i - 1];
    if (op.op === 'add' && prev?.op === 'remove' && prev.path === op.path) return [];
    return [op];
  });
  return merged.map((op) => {
    const where = op.path || '(the value)';
    const whole = op.path === '';
    if (op.op === 'replace') return `~ ${where}: ${(whole && said.before) || oneLine(atPointer(before, op.path), 60)} → ${(whole && said.after) || oneLine(op.value, 60)}`;
    if (op.op === 'add') return `+ ${where}: ${oneLine(op.value)}`;
    if (op.op === 'remove') return `- ${where}`;
    return `↷ ${op.from} → ${where}`;
  });
}

/**
 * Rows as aligned columns: each column padded to its widest cell (the header's included), two spaces
 * between columns, nothing trailing.
 */
export function columns(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd());
}

/** a replay's steps, as its line says them: `1 step compared, 1 answered from the recording, 0 run again` */
export function replayCounts(steps: { compared: number; answered: number; executed: number }): string {
  return `${plural(steps.compared, 'step')} compared, ${counted(steps.answered)} answered from the recording, ${counted(steps.executed)} run again`;
}

/**
 * What to do after a run failed at a point (its failed step, or the phase it stopped in): the one
 * command that takes it on from there once the cause is fixed, as the run page's Rerun from here does.
 */
export function takeOnLine(runId: string, at: string | null): string | null {
  if (!at) return null;
  return `next: fix the cause, then \`stagecraft fork ${shellWord(runId)}\` reruns it from ${at}: what came before is answered from this run's recording, so no model is called for it.`;
}

/** how deep a step's printed lines sit under its event line in `stagecraft events`: past the seq, so no printed line reads as an event */
const PRINTED_INDENT = ' '.repeat(9);

/**
 * What a code step printed (its record's `stdout`, `stderr`), as lines to go under its event: each
 * stream named, then its lines indented, the bundle folders cut from them as from the event's words.
 * None for a step that printed nothing. (A terminal is shown the controls in them, never sent them: main.ts writeTo.)
 * The lines are readable text, as the run page shows them, to a terminal or a pipe alike (a pager, `head`
 * show them on one): colour codes and other CSI sequences dropped, any other control shown as `\x1b`…
 * (`--json` carries the bytes as recorded).
 */
export function printedLines(data: Record<string, unknown>, roots: readonly string[]): string[] {
  const lines: string[] = [];
  for (const stream of ['stdout', 'stderr'] as const) {
    const text = printedText(data[stream], roots);
    if (text === null) continue;
    lines.push(`${PRINTED_INDENT}${stream}:`);
    for (const line of readableText(text).split('\n')) lines.push(`${PRINTED_INDENT}  ${line}`);
  }
  return lines;
}

/**
 * One event of `stagecraft events` (and `--follow`): its line — seq, time, type, what it did — and what a
 * code step printed under it. `roots`: the bundle folders the run executed from, cut from the words.
 */
export function printEvent(e: { seq: number; at: number; type: string; data: JsonObject }, roots: readonly string[], io: Io): void {
  io.out(`${String(e.seq).padStart(5)}  ${new Date(e.at).toISOString()}  ${e.type.padEnd(18)} ${eventSummary(e.type, e.data, roots)}`);
  if (e.type === 'step_completed' && (e.data.stdout !== undefined || e.data.stderr !== undefined)) for (const line of printedLines(e.data, roots)) io.out(line);
}

/** the bundle folder a run started or resumed from, as `roots` of printEvent takes them */
export function bundleRootOf(e: { type: string; data: Record<string, unknown> }): string[] {
  return (e.type === 'run_started' || e.type === 'run_resumed') && typeof e.data.bundleDir === 'string' ? [e.data.bundleDir] : [];
}

/**
 * Which version a fork ran, beside its hash: a skill folder's files (`stagecraft fork RUN` reads the
 * run's folder as it is now) are said to be that folder's, and new when they were recorded as a
 * version just now, and the version the parent ran is named — before, "(version 6ff698f923f5)" alone
 * left a user to guess that the edited folder was taken. Null for a stored version (said as through the app).
 */
export function forkVersionLine(version: string, from: ForkVersionFrom, cwd: string): string | null {
  const short = (hash: string) => hash.slice(0, 12);
  const parent = from.parentVersion === null ? '' : from.parentVersion === version ? ' (the version the parent ran)' : ` (the parent ran ${short(from.parentVersion)})`;
  // a stored version: as through the app (which reads no folder), nothing added
  if (from.folder === null) return null;
  const rel = path.relative(cwd, from.folder);
  const dir = rel === '' ? '.' : rel.startsWith('..') || path.isAbsolute(rel) ? from.folder : rel;
  return `with version ${short(version)} from ${dir}${from.isNew ? ", new: the folder's files as they are now" : ''}${parent}`;
}
