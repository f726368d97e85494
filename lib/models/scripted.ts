/**
 * The scripted model: serves turns from a model script (model-script.ts for
 * the format). It is the demo model and the test model — no network, no
 * randomness, the same run twice gives the same turns.
 *
 * Owns: picking the turn for a request, by position and never by a cursor.
 * The script is split into blocks per phase, in order of appearance; the
 * turn served for (phase P, round r, k-th visit of P) is the r-th turn of the
 * k-th block of P. A phase the script does not name is served from the
 * leading phase-less block, if there is one. Because the pick depends only on
 * the position, a resumed run (whose recorded turns are not asked again) gets
 * exactly the turns a straight run would. The visit comes from visits.ts.
 *
 * Fails loudly, never by improvising a turn:
 *   - `model_script_invalid`   the script is malformed (located, at creation)
 *   - `model_script_phase_mismatch`  the run is in a phase the script has no turns for
 *   - `model_script_exhausted` the phase's block has no turn for this round or visit
 *
 * Tool call ids are `call_<round>_<index>` (index from 0): deterministic, so
 * recorded runs compare equal on replay.
 *
 * Does not: look at the messages or tools of a request, or check that the
 * scripted finish satisfies the contract (the kernel validates it like any
 * model's).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ModelPort, ModelTurn } from '../kernel/ports';
import { ModelError } from '../kernel/errors';
import { parseModelScript, type ModelScript, type ScriptBlock } from './model-script';
import { createVisitTracker, type PositionedRequest, type Position } from './visits';

export type ScriptedModelOptions = {
  /** label for messages when the script is given as text (default `<script>`) */
  file?: string;
  /** the model's name, recorded with each run (default `scripted:<file>`): when `file`, the label of its messages, is not the spec that finds the script again */
  name?: string;
  /** base for a relative script path (default: the process's cwd) */
  cwd?: string;
};

export type ScriptedModel = ModelPort & {
  readonly script: ModelScript;
  invoke(req: PositionedRequest): Promise<ModelTurn>;
};

/**
 * `scriptPathOrText` is script text when it spans lines or starts like a
 * document (`{`, `turns:`); otherwise it is a path to the script file.
 */
export function createScriptedModel(scriptPathOrText: string, opts: ScriptedModelOptions = {}): ScriptedModel {
  const { text, file } = loadScript(scriptPathOrText, opts);
  const script = parsedScript(text, file);
  const visits = createVisitTracker();
  return {
    name: opts.name ?? `scripted:${file}`,
    local: true,
    script,
    async invoke(req) {
      const position = visits.positionOf(req);
      const turn = pickBlock(script, position, req.runId).turns[position.round - 1];
      if (!turn) throw exhausted(script, position, req.runId);
      return {
        text: turn.text,
        toolCalls: turn.toolCalls.map((c, i) => ({ id: `call_${position.round}_${i}`, op: c.op, args: structuredClone(c.args) })),
        finish: turn.finish === null ? null : structuredClone(turn.finish),
        ...(turn.usage ? { usage: { ...turn.usage } } : {}),
      };
    },
  };
}

/** Parsed scripts by (file, text): a host creates a model per run, and re-parsing YAML each time is measurable. */
const PARSED = new Map<string, ModelScript>();
const PARSED_MAX = 64;

function parsedScript(text: string, file: string): ModelScript {
  const key = `${file}\u0000${text}`;
  let script = PARSED.get(key);
  if (!script) {
    script = parseModelScript(text, file);
    if (PARSED.size >= PARSED_MAX) PARSED.delete(PARSED.keys().next().value!);
    PARSED.set(key, script);
  }
  return script;
}

function loadScript(source: string, opts: ScriptedModelOptions): { text: string; file: string } {
  if (source.includes('\n') || /^\s*(\{|turns\s*:)/.test(source)) return { text: source, file: opts.file ?? '<script>' };
  const full = path.resolve(opts.cwd ?? process.cwd(), source);
  try {
    return { text: readFileSync(/*turbopackIgnore: true*/ full, 'utf8'), file: opts.file ?? source };
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    throw new ModelError(
      'model_script_unreadable',
      `Cannot read the model script ${source} (${full}): ${why}. Check the path; a relative path is resolved against ${opts.cwd ?? 'the working directory'}.`,
      { file: source },
    );
  }
}

function pickBlock(script: ModelScript, pos: Position, runId: string): ScriptBlock {
  const named = script.blocks.filter((b) => b.phase === pos.phase);
  if (named.length === 0) {
    const anyPhase = script.blocks[0].phase === null ? script.blocks[0] : undefined;
    if (anyPhase) return anyPhase;
    const phases = [...new Set(script.blocks.map((b) => b.phase))].join(', ');
    throw new ModelError(
      'model_script_phase_mismatch',
      `The run is in phase ${pos.phase}, but the model script ${script.file} has turns only for ${phases}. ` +
        `Add turns with \`phase: ${pos.phase}\`, or check the phase names against the skill's phases.`,
      { file: script.file, phase: pos.phase, round: pos.round, visit: pos.visit, runId },
    );
  }
  const block = named[pos.visit - 1];
  if (!block) {
    const last = named[named.length - 1];
    throw new ModelError(
      'model_script_exhausted',
      `The model script ${script.file} has no turn for phase ${pos.phase} round ${pos.round} (visit ${pos.visit} of the phase: ` +
        `the script has ${named.length} block${named.length === 1 ? '' : 's'} for it); add one: ` +
        `a new \`phase: ${pos.phase}\` block after another phase's turns, below line ${lastLine(last)}.`,
      { file: script.file, phase: pos.phase, round: pos.round, visit: pos.visit, runId },
    );
  }
  return block;
}

function exhausted(script: ModelScript, pos: Position, runId: string): ModelError {
  const block = pickBlock(script, pos, runId);
  const visit = pos.visit > 1 ? ` (visit ${pos.visit})` : '';
  return new ModelError(
    'model_script_exhausted',
    `The model script ${script.file} has no turn for phase ${pos.phase} round ${pos.round}${visit}; add one ` +
      `(its block for ${pos.phase} has ${block.turns.length} turn${block.turns.length === 1 ? '' : 's'}, ending at line ${lastLine(block)}; ` +
      'a turn with `finish:` ends the phase).',
    { file: script.file, phase: pos.phase, round: pos.round, visit: pos.visit, runId },
  );
}

function lastLine(block: ScriptBlock): number {
  return block.turns[block.turns.length - 1].line;
}
