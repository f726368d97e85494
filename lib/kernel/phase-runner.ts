/**
 * The rounds of one phase visit: prompt-assembly → model → post-model →
 * (pre-tool → tool dispatch → record_tools → post-tool) until the model
 * finishes or `max_rounds`; then finalize, and the finish artifact is checked
 * against the phase's output schema (invalid: one more round telling the model
 * what was wrong).
 *
 * Post-tool runs exactly once per tool-bearing round, after the outcomes are
 * folded into the transcript; its contribution rewrites that transcript, which
 * is what the next round's request contains. It never runs on a round that
 * answers directly. Post-model is handed the whole turn.
 *
 * Owns: the round loop and applying contributions. Does not: dispatch stages
 * (stages.ts), execute ops (ops/), or move between phases (runner.ts).
 */
import { ModelError, PhaseFailedError } from './errors';
import { EVENT } from './events';
import type { Json, JsonObject } from './json';
import { isJsonObject } from './json';
import type { PhasePlan } from './plan';
import type { Message, ModelRequest, ModelTurn, ToolCall, ToolSpec } from './ports';
import type { RequestFrame } from './events';
import type { RunContext } from './context';
import { hasRung, runRung } from './stages';
import type { StageResult } from './dispatcher';
import { callOptions, runStep } from './step';
import { pendingForkPoint } from './recording';
import { dispatchOp, forkedArgs } from './ops/dispatch';
import { getOp } from './ops/registry';
import type { ToolOutcome } from './stage-types';
import { checkSchema, formatSchemaErrors } from './schema-check';
import { deriveResponseFormat } from './response-format';
import { derivedFields, deriveReport } from './report';
import { errorToJson } from './errors';
import { appendOnce } from './markers';
import { hashJson } from './memo';
import { isInfrastructureError } from './faults';
import { MAX_JSON_DEPTH, valueDepth } from './json-depth';

/**
 * The request frame of a phase (its system prompt, tools and response format), built once per phase plan, with what
 * its model steps are (`definition`: the prompt's and the contract's hashes, the tools), the same at every visit.
 */
const FRAMES = new WeakMap<PhasePlan, PhaseFrame>();

/** `fields`: the output schema's derived fields (report.ts derivedFields), which the kernel writes over the model's */
type PhaseFrame = { frame: RequestFrame; sha: string; definition: JsonObject; fields: Record<string, string> };

export function requestFrame(ctx: Pick<RunContext, 'plan'>, phase: PhasePlan): PhaseFrame {
  let f = FRAMES.get(phase);
  if (f) return f;
  const system = [
    ctx.plan.system.trim(),
    phase.prompt.trim(),
    `When you are done, finish with a JSON object that satisfies this schema:\n${JSON.stringify(phase.outputSchema)}`,
  ]
    .filter(Boolean)
    .join('\n\n');
  const fields = derivedFields(phase.outputSchema);
  const frame: RequestFrame = {
    system,
    tools: toolSpecs(phase),
    responseFormat: deriveResponseFormat(phase.outputSchema, { machineFields: Object.keys(fields) }),
  };
  // what the model is asked: a changed prompt, contract or tool list at a position is a different
  // step (a determinism error on resume), not a silent second bill
  const definition = { step: 'model', prompt: hashJson(system).slice(0, 16), tools: phase.tools, contract: hashJson(phase.outputSchema).slice(0, 16) };
  FRAMES.set(phase, (f = { frame, sha: hashJson(frame), definition, fields }));
  return f;
}

/** what a rung with no stage gives (runRung is not called for it: no promise, no context copied) */
const NO_RESULTS: readonly StageResult[] = [];

/** The frame's hash, with the frame itself when the log does not hold it yet (it is recorded once). */
export function frameRef(ctx: RunContext, phase: PhasePlan): { frame: string; frameValue?: RequestFrame } {
  const f = requestFrame(ctx, phase);
  if (ctx.frames.has(f.sha)) return { frame: f.sha };
  return { frame: f.sha, frameValue: f.frame };
}

/** The first two messages of a visit: the frame's system prompt and the phase input. */
export function initialTranscript(system: string, input: JsonObject): Message[] {
  return [
    { role: 'system', content: system },
    { role: 'user', content: `Input:\n${JSON.stringify(input, null, 2)}` },
  ];
}

/** The user message that asks for a corrected finish artifact (the fold rebuilds it from `finish_rejected`). */
export function finishRetryMessage(errors: string): string {
  return `Your finish artifact does not satisfy the output schema: ${errors}. Finish again with a corrected JSON object.`;
}

/** What the transcript says after a round that neither called tools nor finished. */
export const CONTINUE_MESSAGE = 'Continue. When you are done, finish with the JSON artifact.';

function toolSpecs(phase: PhasePlan): ToolSpec[] {
  return phase.tools.map((name) => {
    const op = getOp(name)!;
    return { name, description: op.description, parameters: op.args };
  });
}

export async function runPhaseVisit(ctx: RunContext, phase: PhasePlan, visit: number, visitKey: string, input: JsonObject): Promise<JsonObject> {
  const { frame, sha: frameSha, definition, fields } = requestFrame(ctx, phase);
  const { tools, responseFormat } = frame;
  const transcript = initialTranscript(frame.system, input);
  let retried = false;
  for (let round = 1; ; round++) {
    if (round > phase.maxRounds + (retried ? 1 : 0)) {
      throw new PhaseFailedError(
        'max_rounds_exceeded',
        `phase ${phase.name} did not finish within max_rounds (${phase.maxRounds}); raise phases.${phase.name}.max_rounds or make the prompt ask the model to finish sooner`,
        { phase: phase.name, round: round - 1 },
      );
    }
    const prefix = `${visitKey}/r${round}`;
    const base = { phase: phase.name, prefix, round };

    // prompt-assembly: contributions are appended to this round's request only
    const messages = [...transcript];
    for (const r of hasRung(ctx, 'prompt-assembly') ? await runRung(ctx, { ...base, rung: 'prompt-assembly', context: { messages: [...transcript] } }) : NO_RESULTS) {
      if (r.contribution.system) messages.push({ role: 'system', content: r.contribution.system });
      if (r.contribution.messages) messages.push(...r.contribution.messages);
    }
    const request: ModelRequest = { runId: ctx.runId, phase: phase.name, visit, round, messages, tools, responseFormat };
    const modelStep = await runStep(
        ctx,
        {
          kind: 'model',
          phase: phase.name,
          position: `${prefix}/model`,
          definition,
          input: { messages, tools: tools.map((t) => t.name), responseFormat } as unknown as Json,
          pure: false,
          ...(ctx.deps.model.local ? { local: true } : {}),
          label: { round, model: ctx.deps.model.name, ...frameRef(ctx, phase) },
        },
        async () => ({ output: usableTurn(normalizeTurn(await ctx.deps.model.invoke(request, callOptions(ctx)))) as unknown as Json }),
      );
    const turn = modelStep.output as unknown as ModelTurn;
    if (!modelStep.replayed) ctx.frames.add(frameSha);

    if (hasRung(ctx, 'post-model')) await runRung(ctx, { ...base, rung: 'post-model', context: { turn, transcript: [...transcript], evidence: ctx.evidence.list() } });

    if (turn.toolCalls.length > 0) {
      await runToolRound(ctx, phase, base, turn, transcript);
      continue;
    }
    if (turn.finish) {
      let artifact: JsonObject = { ...turn.finish };
      for (const r of hasRung(ctx, 'finalize') ? await runRung(ctx, { ...base, rung: 'finalize', context: { turn, artifact } }) : NO_RESULTS) {
        if (isJsonObject(r.contribution.artifact)) artifact = { ...artifact, ...r.contribution.artifact };
      }
      artifact = await overrideDerivedFacts(ctx, phase, artifact, fields);
      const errors = checkSchema(phase.outputSchema, artifact);
      if (errors.length === 0) return artifact;
      if (retried) {
        throw new PhaseFailedError(
          'output_invalid',
          `phase ${phase.name}: the finish artifact does not satisfy the output schema after one retry: ${formatSchemaErrors(errors)}`,
          { phase: phase.name, round },
        );
      }
      retried = true;
      const told = formatSchemaErrors(errors);
      // the log says why the next round was asked for (the retry message is rebuilt from it)
      await appendOnce(ctx, `${prefix}:finish-rejected`, EVENT.finishRejected, { phase: phase.name, visit, round, errors: told }, 'group');
      transcript.push({ role: 'assistant', content: `${turn.text ? `${turn.text}\n` : ''}${JSON.stringify(turn.finish)}` });
      transcript.push({ role: 'user', content: finishRetryMessage(told) });
      continue;
    }
    transcript.push({ role: 'assistant', content: turn.text });
    transcript.push({ role: 'user', content: CONTINUE_MESSAGE });
  }
}

async function runToolRound(
  ctx: RunContext,
  phase: PhasePlan,
  base: { phase: string; prefix: string; round: number },
  turn: ModelTurn,
  transcript: Message[],
): Promise<void> {
  const requests: ToolCall[] = turn.toolCalls.map((c) => ({ ...c, args: { ...c.args } }));
  const deny = new Map<number, string>();
  for (const r of hasRung(ctx, 'pre-tool') ? await runRung(ctx, { ...base, rung: 'pre-tool', context: { turn, requests, transcript: [...transcript] } }) : NO_RESULTS) {
    for (const [i, reason] of Object.entries(r.contribution.deny ?? {})) if (!deny.has(Number(i))) deny.set(Number(i), reason);
    for (const [i, args] of Object.entries(r.contribution.args ?? {})) {
      const req = requests[Number(i)];
      if (req && isJsonObject(args)) req.args = args;
    }
  }
  const outcomes: ToolOutcome[] = [];
  for (let i = 0; i < requests.length; i++) {
    const req = requests[i];
    if (deny.has(i)) {
      outcomes.push({ callId: req.id, op: req.op, status: 'denied', content: `denied: ${deny.get(i)}` });
      continue;
    }
    try {
      // a fork point at this call's arguments: the edited ones are sent, and shown to the model
      if (pendingForkPoint(ctx) !== null) req.args = await forkedArgs(ctx, req.op, `${base.prefix}/tool/${i}`, req.args);
      const data = await dispatchOp(ctx, {
        op: req.op,
        args: req.args,
        caller: { kind: 'model', phase: phase.name, tools: phase.tools },
        position: `${base.prefix}/tool/${i}`,
        label: { round: base.round, index: i, callId: req.id },
      });
      outcomes.push({ callId: req.id, op: req.op, status: 'ok', content: typeof data === 'string' ? data : JSON.stringify(data), data });
    } catch (err) {
      if (isInfrastructureError(err)) throw err;
      const e = errorToJson(err);
      outcomes.push({ callId: req.id, op: req.op, status: 'error', content: `error (${e.code}): ${e.message}` });
    }
  }
  // record_tools: the outcomes are folded into the transcript the next round is sent
  transcript.push({ role: 'assistant', content: turn.text, toolCalls: requests });
  const toolMsgAt: number[] = [];
  for (const o of outcomes) {
    toolMsgAt.push(transcript.length);
    transcript.push({ role: 'tool', toolCallId: o.callId, op: o.op, content: o.content });
  }
  // post-tool: after record_tools, once per tool-bearing round
  const results = hasRung(ctx, 'post-tool') ? await runRung(ctx, { ...base, rung: 'post-tool', context: { turn, requests, outcomes, transcript: [...transcript] } }) : NO_RESULTS;
  for (const r of results) {
    for (const [i, replacement] of Object.entries(r.contribution.outcomes ?? {})) {
      const at = toolMsgAt[Number(i)];
      const msg = at === undefined ? undefined : transcript[at];
      if (msg && msg.role === 'tool' && typeof replacement?.content === 'string') transcript[at] = { ...msg, content: replacement.content };
    }
  }
}

function normalizeTurn(t: ModelTurn): ModelTurn {
  return {
    text: typeof t.text === 'string' ? t.text : '',
    toolCalls: Array.isArray(t.toolCalls) ? t.toolCalls : [],
    finish: isJsonObject(t.finish) ? t.finish : null,
    ...(t.usage ? { usage: t.usage } : {}),
  };
}

/** past this, how deep a model's answer nests is not counted on: a message says "more than" it */
const DEPTH_COUNTED_UP_TO = 1_000_000;

/**
 * `t`, when what the model answered nests no deeper than a code step's value may (MAX_JSON_DEPTH):
 * the model's answer is where such a value enters the run, and every recursive walker after it
 * (the step's record, hashing, the store, the views) would overflow its stack on one nested
 * thousands deep. Else a ModelError (model_bad_response) saying which part, how deep, and what to do.
 */
function usableTurn(t: ModelTurn): ModelTurn {
  // `what`: the part, with its verb
  const tooDeep = (what: string, v: unknown): ModelError | null => {
    if (valueDepth(v) <= MAX_JSON_DEPTH) return null;
    const n = valueDepth(v, DEPTH_COUNTED_UP_TO);
    const depth = n > DEPTH_COUNTED_UP_TO ? `more than ${DEPTH_COUNTED_UP_TO}` : String(n);
    return new ModelError(
      'model_bad_response',
      `The model's answer cannot be used: ${what} nested ${depth} levels deep; at most ${MAX_JSON_DEPTH} levels are accepted, as for any value of a run. ` +
        'Ask for a flatter value (the phase\'s prompt or output schema), or check what the model endpoint sends; the turn was not recorded.',
      { part: what.replace(/ (is|are)$/, ''), depth: n, maxDepth: MAX_JSON_DEPTH },
    );
  };
  const e =
    tooDeep('its finish artifact is', t.finish) ??
    t.toolCalls.reduce<ModelError | null>((found, c, i) => found ?? tooDeep(`the arguments of its tool call ${i} (${String(c?.op)}) are`, c?.args), null);
  if (e) throw e;
  return t;
}

/** A machine-derived field the model wrote anyway is overridden by the derived value; the override is recorded. */
async function overrideDerivedFacts(ctx: RunContext, phase: PhasePlan, artifact: JsonObject, fields: Record<string, string>): Promise<JsonObject> {
  const names = Object.keys(fields);
  if (names.length === 0) return artifact;
  const report = deriveReport([...ctx.log]) as unknown as JsonObject;
  const out = { ...artifact };
  for (const field of names) {
    const derived = (report[fields[field]] ?? null) as Json;
    const written = artifact[field];
    if (written !== undefined && JSON.stringify(written) !== JSON.stringify(derived)) {
      await appendOnce(ctx, `${ctx.currentVisit}:override:${field}`, EVENT.factOverridden, { phase: phase.name, field, fact: fields[field], modelValue: written, derivedValue: derived }, 'group');
    }
    out[field] = derived;
  }
  return out;
}
