/**
 * The StageDispatcher: one dispatch for all five rungs of the ladder.
 *
 * Every rung follows the same four rules (kernel.md, seeds kernel-post_model
 * and kernel-post_tool):
 *  1. grants are explicit — `runPhase` has no default for them, so a call site
 *     that forgets them does not compile (a defaulted "no grants" once meant
 *     "skip the check");
 *  2. refused before entered — a stage asking for an effect not granted gets a
 *     `refused` trace naming what is missing; its handler is never called;
 *  3. a raise is a `failed` trace with the error and stack;
 *  4. failed ends the turn — callers run `requireNoCrashedStage` after each
 *     rung, so a crashed stage can never be a turn that "finished fine".
 *
 * It also filters what a contribution may say on its rung: a key the rung does
 * not honour, or one that needs an effect the stage did not declare, is kept
 * on the trace as not applied and changes nothing.
 *
 * Owns: traces and contribution filtering. Does not: apply contributions to
 * the run (the phase runner does), memoize (the invoker it is given does), or
 * know about processes (module capabilities are the invoker's business).
 */
import { StageCrashedError, StagecraftError } from './errors';
import type { Json, JsonObject } from './json';
import type { Rung, StageSpec } from './plan';
import type { Clock, IdSource, StageTrace } from './ports';
import { RUNG_EFFECT } from './builtins/catalog';
import { isInfrastructureError } from './faults';
import { RUNG_KEYS, type Contribution, type StageContext } from './stage-types';

/** Executes one stage's handler; returns its (raw) contribution. */
/** `startedAt`: when the stage was entered, on the dispatcher's clock (its trace's startedAt) */
export type StageInvoker = (stage: StageSpec, ctx: StageContext, startedAt: number) => Promise<Contribution | undefined>;

export type StageResult = { stage: StageSpec; trace: StageTrace; contribution: Contribution };

export type DispatchMeta = { runId: string; phase: string; round: number };

export const CONTRIBUTION_SUMMARY_MAX_CHARS = 2000;
/** where post-tool stages may keep full tool results */
export const TOOL_RESULTS_PREFIX = 'tool-results/';

export class StageDispatcher {
  constructor(
    private readonly invoke: StageInvoker,
    private readonly clock: Clock,
    private readonly ids: IdSource,
  ) {}

  /**
   * Dispatch every stage of `program` on `rung`, in program order.
   * `grants` is required on purpose: see rule 1 above.
   */
  async runPhase(
    program: readonly StageSpec[],
    rung: Rung,
    contextFor: (stage: StageSpec) => StageContext,
    grants: ReadonlySet<string>,
    meta: DispatchMeta,
    /** called with each stage's result before the next stage is entered (the run records it there) */
    onResult?: (result: StageResult) => Promise<void>,
  ): Promise<StageResult[]> {
    const out: StageResult[] = [];
    for (const stage of program) {
      if (stage.rung !== rung) continue;
      const startedAt = this.clock.now();
      // plain loops: this is the hot path of every rung (closures here cost more than the check)
      const granted: string[] = [];
      const missing: string[] = [];
      for (const e of stage.effects) (grants.has(e) ? granted : missing).push(e);
      // one literal with every field: a spread-built trace is several times slower on this hot path
      const trace: StageTrace = {
        id: this.ids.newId('trace'),
        runId: meta.runId,
        seq: 0,
        round: meta.round,
        phase: meta.phase,
        rung,
        capability: stage.capability,
        stage: stage.name,
        status: 'ok',
        effects: { asked: stage.effects.slice(), granted, missing },
        contribution: null,
        notApplied: [],
        error: null,
        startedAt,
        endedAt: startedAt,
        durationMs: 0,
      };
      let contribution: Contribution = {};
      if (missing.length > 0) {
        trace.status = 'refused';
        trace.error = {
          message: `refused before entry: effect${missing.length > 1 ? 's' : ''} ${missing.join(', ')} not granted; add ${missing.length > 1 ? 'them' : 'it'} to permissions.effects`,
          stack: null,
        };
      } else {
        try {
          const raw = (await this.invoke(stage, contextFor(stage), startedAt)) ?? {};
          const filtered = filterContribution(rung, stage, raw);
          contribution = filtered.applied;
          trace.contribution = summarize(raw);
          trace.notApplied = filtered.notApplied;
        } catch (err) {
          // a crash, a lost claim, a release or a store that stopped recording (or cannot be reached) is
          // not the stage's failure: the invoker commits before it enters a handler, and what failed
          // there must stop the run as is
          if (isInfrastructureError(err)) throw err;
          const e = err instanceof Error ? err : new Error(String(err));
          trace.status = 'failed';
          // user code run in the sandbox: its own traceback, not the stack of the error that carried it here
          const traceback = err instanceof StagecraftError && typeof err.details.traceback === 'string' ? err.details.traceback : null;
          trace.error = { message: e.message, stack: traceback ?? e.stack ?? null };
        }
      }
      trace.endedAt = this.clock.now();
      trace.durationMs = trace.endedAt - startedAt;
      const result = { stage, contribution, trace };
      out.push(result);
      if (onResult) await onResult(result);
    }
    return out;
  }
}

/** Rule 4: a failed trace ends the turn. */
export function requireNoCrashedStage(results: readonly StageResult[], phase: string): void {
  const failed = results.find((r) => r.trace.status === 'failed');
  if (!failed) return;
  const t = failed.trace;
  // the advice ends the error's first line: after its stack and last stderr it read as the code's own output
  const [said, ...more] = String(t.error?.message).split('\n');
  throw new StageCrashedError(
    `stage "${t.stage}" (capability ${t.capability}) crashed on the ${t.rung} rung of phase ${phase}, round ${t.round}: ${said}. Fix the capability's handler; the run stops here.` +
      (more.length ? `\n${more.join('\n')}` : ''),
    { phase, rung: t.rung, stage: t.stage, capability: t.capability, round: t.round },
  );
}

export function filterContribution(
  rung: Rung,
  stage: StageSpec,
  raw: Contribution,
): { applied: Contribution; notApplied: JsonObject[] } {
  const applied: Contribution = {};
  const notApplied: JsonObject[] = [];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { applied, notApplied: [{ key: '(contribution)', reason: 'a contribution must be an object' }] };
  }
  const allowed = RUNG_KEYS[rung];
  const needs = RUNG_EFFECT[rung];
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    if (!allowed.includes(key as keyof Contribution)) {
      notApplied.push({ key, reason: `the ${rung} rung does not honour "${key}" (it honours: ${allowed.join(', ')})` });
      continue;
    }
    if (key === 'workspace') {
      // the offload companion of a post-tool cut: only under tool-results/, never elsewhere in the workspace
      const paths = Object.keys(value as object);
      const outside = paths.filter((p) => !p.startsWith(TOOL_RESULTS_PREFIX) || p.includes('..'));
      if (outside.length) {
        notApplied.push({ key, reason: `a stage may keep texts only under ${TOOL_RESULTS_PREFIX}, not at ${outside.join(', ')}` });
        continue;
      }
    } else if (needs && !stage.effects.includes(needs)) {
      notApplied.push({ key, reason: `"${key}" needs effect ${needs}, which the capability did not declare` });
      continue;
    }
    (applied as Record<string, unknown>)[key] = value;
  }
  return { applied, notApplied };
}

function summarize(raw: Contribution): Json {
  const text = JSON.stringify(raw ?? {});
  if (text.length <= CONTRIBUTION_SUMMARY_MAX_CHARS) return raw as unknown as Json;
  return { truncated: true, chars: text.length, preview: text.slice(0, CONTRIBUTION_SUMMARY_MAX_CHARS) };
}
