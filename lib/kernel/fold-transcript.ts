/**
 * The transcript of a phase visit as the fold reads it: what the kernel's
 * phase runner held at event k — the frame's system prompt and the phase
 * input, then each round's closing messages (record_tools, a finish retry,
 * "continue"), with post-tool rewrites applied — and the tool batches of a
 * round (requests after pre-tool, denials, outcomes) the messages are made of.
 *
 * Every rule here is the phase runner's (phase-runner.ts), built from the
 * recorded turns and contributions; the words it adds are imported from it, so
 * the two cannot say different things. rebuild.ts checks the result against
 * the recorded memo keys.
 *
 * Does not: index events (fold.ts) or shape views (fold-state.ts).
 */
import type { JsonObject } from './json';
import { isJsonObject } from './json';
import type { Message, ToolCall } from './ports';
import type { ToolOutcome } from './stage-types';
import type { RequestFrame, StageStepData } from './events';
import type { Rec, RoundRec, RunFold, VisitRec } from './fold';
import { chainValueAt } from './fold';
import { CONTINUE_MESSAGE, finishRetryMessage, initialTranscript } from './phase-runner';
import { evidenceText } from './evidence';

/** Where each message of a transcript comes from: its id, the seq it entered at, the seq of its last rewrite. */
export type MessageMeta = { id: string; seq: number; editedSeq?: number; editedBy?: string };

export type Transcript = { messages: Message[]; meta: MessageMeta[] };

/** the applied contribution of an ok stage record (null for any other) */
export function contributionOf(s: Rec<StageStepData>): JsonObject | null {
  if (s.data.status !== 'ok' || !('contribution' in s.data.output)) return null;
  return s.data.output.contribution;
}

function stagesOn(round: RoundRec, rung: string, k: number): Rec<StageStepData>[] {
  return round.stages.filter((s) => s.data.rung === rung && s.seq <= k);
}

/** The batch as pre-tool stages were handed it: the turn's calls, copied. */
export function requestsOf(round: RoundRec): ToolCall[] {
  return (round.model?.data.output.toolCalls ?? []).map((c) => ({ ...c, args: { ...c.args } }));
}

/** The batch as dispatched: pre-tool `args` rewrites applied (stages recorded up to k). */
export function requestsAfterPreTool(round: RoundRec, k: number): ToolCall[] {
  const requests = requestsOf(round);
  for (const s of stagesOn(round, 'pre-tool', k)) {
    const c = contributionOf(s);
    if (!c || !isJsonObject(c.args)) continue;
    for (const [i, args] of Object.entries(c.args)) {
      const req = requests[Number(i)];
      if (req && isJsonObject(args)) req.args = args;
    }
  }
  return requests;
}

/** call index → the first pre-tool stage's reason for denying it */
export function denialsAt(round: RoundRec, k: number): Map<number, { reason: string; stage: string; seq: number }> {
  const deny = new Map<number, { reason: string; stage: string; seq: number }>();
  for (const s of stagesOn(round, 'pre-tool', k)) {
    const c = contributionOf(s);
    if (!c || !isJsonObject(c.deny)) continue;
    for (const [i, reason] of Object.entries(c.deny)) if (!deny.has(Number(i))) deny.set(Number(i), { reason: String(reason), stage: s.data.stage, seq: s.seq });
  }
  return deny;
}

/** The outcomes of the batch (aligned with the requests; null where nothing is recorded yet at k). */
export function outcomesAt(round: RoundRec, k: number): (ToolOutcome | null)[] {
  const requests = requestsAfterPreTool(round, k);
  const deny = denialsAt(round, k);
  return requests.map((req, i) => {
    const denied = deny.get(i);
    if (denied) return { callId: req.id, op: req.op, status: 'denied', content: `denied: ${denied.reason}` };
    const rec = (round.tools[i] ?? []).filter((t) => t.seq <= k).pop();
    if (!rec) return null;
    const d = rec.data;
    if (d.status === 'ok') return { callId: req.id, op: req.op, status: 'ok', content: evidenceText(d.output), data: d.output };
    const err = isJsonObject(d.output) && isJsonObject(d.output.error) ? d.output.error : {};
    const code = typeof err.code === 'string' ? err.code : d.status === 'refused' ? 'grant_refused' : 'op_failed';
    const message = typeof err.message === 'string' ? err.message : `op ${req.op} failed`;
    return { callId: req.id, op: req.op, status: 'error', content: `error (${code}): ${message}` };
  });
}

/** the request frame a visit's rounds are asked with (a model step may name a newer one) */
export function frameOf(fold: RunFold, visit: VisitRec, round?: RoundRec): RequestFrame | null {
  const sha = round?.model?.data.frame ?? visit.frame;
  return (sha ? fold.frames.get(sha) : undefined) ?? fold.fallbackFrame?.(visit.phase) ?? null;
}

/**
 * Which rounds' closing messages a transcript holds. By default, those closed by seq k; `through`
 * says it by position instead — the rounds before `round`, and that round's own closing when
 * `closing` (with its post-tool rewrites unless `edits` is false) — which is what the kernel held at
 * a step of that round in any execution, a resumed one replaying the visit included.
 */
export type Through = { round: number; closing: boolean; edits: boolean };

/** The visit's transcript at k, as the phase runner held it (records up to k; rounds per `through`). */
export function transcriptAt(fold: RunFold, visit: VisitRec, k: number, through?: Through): Transcript {
  const out: Transcript = { messages: [], meta: [] };
  if (visit.transcriptSeq === null || visit.transcriptSeq > k) return out;
  const push = (m: Message, seq: number) => {
    out.meta.push({ id: `${visit.key}/m${out.messages.length}`, seq });
    out.messages.push(m);
  };
  const input = visit.pre ? chainValueAt(visit.pre, k).value : visit.input;
  for (const m of initialTranscript(frameOf(fold, visit)?.system ?? '', input)) push(m, visit.transcriptSeq);
  for (const round of visit.rounds) {
    if (!round.model || round.model.seq > k) continue;
    if (through ? round.round > through.round || (round.round === through.round && !through.closing) : round.closedAt === null || round.closedAt > k) continue;
    const turn = round.model.data.output;
    const at = round.closedAt ?? k;
    if (round.rejected && round.rejected.seq <= k) {
      push({ role: 'assistant', content: `${turn.text ? `${turn.text}\n` : ''}${JSON.stringify(turn.finish)}` }, at);
      push({ role: 'user', content: finishRetryMessage(round.rejected.data.errors) }, at);
      continue;
    }
    if (turn.finish && turn.toolCalls.length === 0) continue; // a finish that was not rejected ends the visit
    if (turn.toolCalls.length === 0) {
      push({ role: 'assistant', content: turn.text }, at);
      push({ role: 'user', content: CONTINUE_MESSAGE }, at);
      continue;
    }
    // record_tools: the batch as dispatched, then one tool message per outcome
    push({ role: 'assistant', content: turn.text, toolCalls: requestsAfterPreTool(round, k) }, at);
    const toolMsgAt: number[] = [];
    for (const o of outcomesAt(round, k)) {
      if (!o) continue;
      toolMsgAt.push(out.messages.length);
      push({ role: 'tool', toolCallId: o.callId, op: o.op, content: o.content }, at);
    }
    if (through && round.round === through.round && !through.edits) continue;
    for (const s of stagesOn(round, 'post-tool', k)) {
      const c = contributionOf(s);
      if (!c || !isJsonObject(c.outcomes)) continue;
      for (const [i, replacement] of Object.entries(c.outcomes)) {
        const idx = toolMsgAt[Number(i)];
        const msg = idx === undefined ? undefined : out.messages[idx];
        if (msg && msg.role === 'tool' && isJsonObject(replacement) && typeof replacement.content === 'string') {
          out.messages[idx] = { ...msg, content: replacement.content };
          out.meta[idx] = { ...out.meta[idx], editedSeq: s.seq, editedBy: s.data.stage };
        }
      }
    }
  }
  return out;
}

/** The messages a round's model step was sent: the transcript, then what prompt-assembly stages added. */
export function requestMessages(fold: RunFold, visit: VisitRec, round: RoundRec): Transcript {
  const k = round.model ? round.model.seq : fold.lastSeq;
  const t = transcriptAt(fold, visit, k, { round: round.round, closing: false, edits: false });
  for (const s of stagesOn(round, 'prompt-assembly', k)) {
    const c = contributionOf(s);
    if (!c) continue;
    if (typeof c.system === 'string' && c.system) {
      t.meta.push({ id: `${round.id}/prompt-assembly/${s.data.stage}/system`, seq: s.seq });
      t.messages.push({ role: 'system', content: c.system });
    }
    if (Array.isArray(c.messages)) {
      c.messages.forEach((m, i) => {
        t.meta.push({ id: `${round.id}/prompt-assembly/${s.data.stage}/m${i}`, seq: s.seq });
        t.messages.push(m as unknown as Message);
      });
    }
  }
  return t;
}
