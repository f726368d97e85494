/**
 * A few words for each thing a run did, read from its records: what a stage
 * contributed ("denied call 1 (secrets are off limits)", "trimmed result 0
 * from 139 to 40 characters", "added 2 annotations", "refused: missing grant
 * tools.gate"), what a processor step did and which on_error branch it took,
 * a tool call's outcome, a model turn, and any event (the scrubber's "what
 * changed").
 *
 * Words are built from the records only, never asked of a model. A trimmed
 * result is recognised by its text: the replacement keeps the start of the
 * original (that is what trimming is); anything else is a rewrite.
 *
 * Owns: the wording. Does not: decide statuses (the kernel recorded them).
 */
import type { ModelTurn } from './ports';
import type { Json, JsonObject } from './json';
import { isJsonObject } from './json';
import type { ProcessorStepData, StageStepData, ToolStepData } from './events';
import type { ToolOutcome } from './stage-types';
import { EVENT } from './events';
import { errorLineOf, relativeToBundle } from './error-info';
import { counted, plural } from './plural';
import { deniedCall } from './denied-words';
import { cutText } from './cut-text';

/** how words quoted from a record (an error line, a reason) are cut: to a few words, or kept whole */
type Cut = (s: string, n?: number) => string;
const clip: Cut = (s, n = 80) => cutText(s, n);
const whole: Cut = (s) => s;

/** What a stage did, in a few words. `outcomes`: its round's tool outcomes before post-tool (for trims). */
export function stageSummary(d: StageStepData, outcomes: readonly (ToolOutcome | null)[] = [], roots: readonly string[] = [], cut: Cut = clip): string {
  if (d.status === 'refused') return `refused: missing grant${(d.missing ?? []).length === 1 ? '' : 's'} ${(d.missing ?? d.definition.effects).join(', ')}`;
  if (d.status === 'failed') return `failed: ${cut(errorLineOf('error' in d.output ? d.output.error.message : 'failed', roots))}`;
  if (d.status === 'skipped') return 'skipped';
  const c = 'contribution' in d.output ? d.output.contribution : {};
  const parts: string[] = [];
  if (typeof c.system === 'string' && c.system) parts.push(`added a system message (${plural(c.system.length, 'character')})`);
  if (Array.isArray(c.messages) && c.messages.length) parts.push(`added ${plural(c.messages.length, 'message')}`);
  if (Array.isArray(c.annotations)) parts.push(c.annotations.length ? `added ${plural(c.annotations.length, 'annotation')}` : '');
  if (isJsonObject(c.deny)) for (const [i, why] of Object.entries(c.deny)) parts.push(deniedCall(i, cut(String(why), 60)));
  if (isJsonObject(c.args)) for (const i of Object.keys(c.args)) parts.push(`rewrote the args of call ${i}`);
  if (isJsonObject(c.outcomes)) {
    for (const [i, r] of Object.entries(c.outcomes)) parts.push(outcomeRewrite(Number(i), isJsonObject(r) ? r.content : undefined, outcomes[Number(i)]?.content));
  }
  if (isJsonObject(c.workspace)) parts.push(`kept ${plural(Object.keys(c.workspace).length, 'text')} in the workspace`);
  if (isJsonObject(c.artifact)) parts.push(`patched the artifact: ${Object.keys(c.artifact).join(', ')}`);
  const said = parts.filter(Boolean);
  const notApplied = d.notApplied?.length ? `; ${plural(d.notApplied.length, 'key')} not applied` : '';
  if (!said.length) return `contributed nothing${notApplied}`;
  return `${said.join('; ')}${notApplied}`;
}

function outcomeRewrite(i: number, replacement: Json | undefined, original: string | undefined): string {
  if (typeof replacement !== 'string' || original === undefined) return `rewrote result ${i}`;
  let kept = 0;
  while (kept < replacement.length && kept < original.length && replacement[kept] === original[kept]) kept++;
  if (kept > 0 && kept < original.length) return `trimmed result ${i} from ${counted(original.length)} to ${plural(kept, 'character')}`;
  return `rewrote result ${i} (${counted(original.length)} → ${plural(replacement.length, 'character')})`;
}

/** The on_error branch a processor step took: none (it succeeded), or fail / skip / empty. */
export function branchOf(d: ProcessorStepData): 'none' | 'fail' | 'skip' | 'empty' {
  return d.status === 'failed' ? 'fail' : d.status === 'skipped' ? 'skip' : d.status === 'empty' ? 'empty' : 'none';
}

export function stepSummary(d: ProcessorStepData, roots: readonly string[] = [], cut: Cut = clip): string {
  const err = isJsonObject(d.output) && isJsonObject(d.output.error) ? errorLineOf(d.output.error.message, roots) : '';
  const def = isJsonObject(d.definition) ? d.definition : {};
  const into = typeof def.into === 'string' ? def.into : null;
  switch (d.status) {
    case 'failed':
      return `failed (on_error: fail, the run stops): ${cut(err)}`;
    case 'skipped':
      return `failed, skipped (on_error: skip): ${cut(err)}`;
    case 'empty':
      return `failed; wrote the empty value to ${into ?? 'its target'} (on_error: empty): ${cut(err)}`;
    default: {
      if (d.type === 'validate') return 'valid';
      if (into) return `stored its result in ${into}`;
      const keys = isJsonObject(d.output) ? Object.keys(d.output) : [];
      return keys.length ? `merged ${keys.slice(0, 4).join(', ')}${keys.length > 4 ? ` and ${keys.length - 4} more` : ''}` : 'ran';
    }
  }
}

export function toolSummary(outcome: ToolOutcome | null, d: ToolStepData | null, deniedBy: string | null): string {
  if (!outcome) return d?.status === 'refused' ? 'refused by the permission gate' : 'not run yet';
  if (outcome.status === 'denied') return `denied by ${deniedBy ?? 'a pre-tool stage'}: ${clip(outcome.content.replace(/^denied: /, ''))}`;
  if (d?.status === 'refused') return `refused by the permission gate: ${clip(outcome.content.replace(/^error \(grant_refused\): /, ''))}`;
  if (outcome.status === 'error') return clip(outcome.content);
  return `ok, ${plural(outcome.content.length, 'character')}`;
}

export function turnSummary(t: ModelTurn): string {
  if (t.toolCalls.length) return `called ${plural(t.toolCalls.length, 'tool')}: ${[...new Set(t.toolCalls.map((c) => c.op))].join(', ')}`;
  if (t.finish) return `finished with ${plural(Object.keys(t.finish).length, 'field')}`;
  return t.text ? `replied (${plural(t.text.length, 'character')}), without finishing` : 'replied with nothing';
}

/** `, by worker <id>` / `, by the app on <host> (pid <n>)`: who drives the run from an event on (`driver`), or nothing */
function byWhom(driver: Json | undefined): string {
  if (!isJsonObject(driver)) return '';
  if (typeof driver.worker === 'string') return `, by worker ${driver.worker}`;
  return `, by the ${String(driver.kind ?? 'process')} on ${String(driver.host ?? '?')} (pid ${String(driver.pid ?? '?')})`;
}

/**
 * What one event did, in a line (the scrubber shows it beside the diff). `roots`: the bundle folders
 * the run executed from (provenance.ts bundleRoots), cut from the words as the report cuts them.
 */
export function eventSummary(type: string, data: JsonObject, roots: readonly string[] = []): string {
  return relativeToBundle(eventWords(type, data, roots, clip), roots);
}

/** The same line with nothing it quotes cut short (an error, a rejection, a reason): the scrubber shows it whole. */
export function eventSummaryWhole(type: string, data: JsonObject, roots: readonly string[] = []): string {
  return relativeToBundle(eventWords(type, data, roots, whole), roots);
}

/** `; a fork of run X from P` / `; a replay of run X`: a derived run's start says what it came from */
function derivedFrom(d: Record<string, Json>): string {
  if ((d.kind !== 'fork' && d.kind !== 'replay') || typeof d.parentRunId !== 'string') return '';
  return `; a ${d.kind} of run ${d.parentRunId}${typeof d.forkPoint === 'string' ? ` from ${d.forkPoint}` : ''}`;
}

function stepWords(d: Record<string, Json>, data: JsonObject, roots: readonly string[], cut: Cut): string {
  const at = String(d.position);
  if (d.kind === 'model') return `${at}: ${turnSummary(d.output as unknown as ModelTurn)}`;
  if (d.kind === 'stage') return `${at}: ${stageSummary(data as unknown as StageStepData, [], roots, cut)}`;
  if (d.kind === 'processor') return `${at} ${String(d.type)} ${String(d.status)}: ${stepSummary(data as unknown as ProcessorStepData, roots, cut)}`;
  return `${at} ${String(d.op)} ${String(d.status)}`;
}

function eventWords(type: string, data: JsonObject, roots: readonly string[], cut: Cut): string {
  const d = data as Record<string, Json>;
  switch (type) {
    case EVENT.runStarted:
      return `the run ${d.queued === true ? 'was queued' : 'started'}: skill ${String(d.skill)}, model ${String(d.model)}${byWhom(d.driver)}${derivedFrom(d)}`;
    case EVENT.forkPointReached: {
      const named = d.target === 'input' && String(d.position).includes('/') ? `${String(d.position)}/input` : String(d.position);
      const what = d.edited !== null && d.edited !== undefined ? 'the edited value goes on in place of the one recorded' : 'the step there runs again';
      return `the fork reached its point, ${named}: the steps before it were answered from run ${String(d.from)}'s recording; ${what}, and from here on the run is live`;
    }
    case EVENT.runAdmitted:
      return `the run was admitted after ${Math.round(Number(d.waitedMs) / 100) / 10} s queued${byWhom(d.driver)}`;
    case EVENT.runResumed:
      return `the run resumed in ${String(d.currentPhase)} (from seq ${String(d.fromSeq)})${byWhom(d.driver)}`;
    case EVENT.phaseStarted:
      return `phase ${String(d.phase)} started${Number(d.visit) > 1 ? ` (visit ${String(d.visit)})` : ''}`;
    case EVENT.phaseCompleted:
      return `phase ${String(d.phase)} finished${d.next ? `; next: ${String(d.next)}` : ''}`;
    case EVENT.finishRejected:
      return `the finish artifact of round ${String(d.round)} was rejected: ${cut(String(d.errors))}`;
    case EVENT.artifactPersisted:
      return `the finish artifact is kept at ${String(d.path)}; the postprocessor starts`;
    case EVENT.factOverridden:
      return `the model's ${String(d.field)} was replaced by the derived ${String(d.fact)}`;
    case EVENT.runCompleted:
      return 'the run completed';
    case EVENT.runFailed:
      return `the run failed: ${cut(errorLineOf(isJsonObject(d.error) ? d.error.message : '', roots))}`;
    case EVENT.runAborted:
      return `the run was aborted: ${cut(errorLineOf(isJsonObject(d.error) ? d.error.message : '', roots))}`;
    case EVENT.stepCompleted:
      return `${stepWords(d, data, roots, cut)}${isJsonObject(d.recorded) ? (d.edited === true ? " (the fork's edited value)" : ' (reused from the recording)') : ''}`;
  }
  return type;
}
