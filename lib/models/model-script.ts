/**
 * The model script format (YAML or JSON) of the scripted model: parsing and
 * validation, with every finding located at line:column of the script.
 *
 *   turns:
 *     - phase: draft                # optional: fail loudly if the run is elsewhere
 *       text: "Reading the notes first."
 *       tool_calls:
 *         - { op: file/read, args: { path: notes.txt } }
 *     - phase: draft
 *       finish: { title: Hello, body: "Hello world" }
 *
 * A turn has `phase`, `text`, `tool_calls` (each `{ op, args }`), `finish`
 * (an object) and `usage` (`{ input_tokens, output_tokens }`), nothing else,
 * and at least one of `text`, `tool_calls`, `finish`.
 *
 * Owns: turning script text into blocks — runs of consecutive turns of one
 * phase, in order of appearance. A turn without `phase` belongs to the phase
 * of the turn before it; leading turns without any phase form a block of no
 * phase, which serves any phase the script does not name.
 *
 * Does not: pick a turn for a request (scripted.ts), or read files.
 * Invalid scripts are refused whole, before any turn is served: a run never
 * discovers halfway that its script was malformed.
 */
import { LineCounter, isMap, isScalar, isSeq, parseDocument, type Document, type Node, type Pair } from 'yaml';
import { ModelScriptInvalidError } from '../kernel/errors';
import type { Json, JsonObject } from '../kernel/json';
import { isJsonObject } from '../kernel/json';
import { MAX_JSON_DEPTH, valueDepth } from '../kernel/json-depth';

/** A turn as written, before ids are assigned (ids depend on the round it is served at). */
export type ScriptTurn = {
  text: string;
  toolCalls: { op: string; args: JsonObject }[];
  finish: JsonObject | null;
  usage?: { inputTokens: number; outputTokens: number };
  /** 1-based line of the turn in the script */
  line: number;
};

export type ScriptBlock = {
  /** null: the leading turns without a phase, served to any phase the script does not name */
  phase: string | null;
  turns: ScriptTurn[];
};

export type ModelScript = { file: string; blocks: ScriptBlock[] };

type Finding = { line: number; column: number; message: string };

const TURN_KEYS = ['phase', 'text', 'tool_calls', 'finish', 'usage'];
const TOOL_CALL_KEYS = ['op', 'args'];
const USAGE_KEYS = ['input_tokens', 'output_tokens'];

export function parseModelScript(text: string, file: string): ModelScript {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const findings: Finding[] = [];
  const at = (node: Node | null | undefined, fallback?: Node | null): { line: number; column: number } => {
    const offset = node?.range?.[0] ?? fallback?.range?.[0] ?? 0;
    const { line, col } = lines.linePos(offset);
    return { line, column: col };
  };
  const fail = (node: Node | null | undefined, message: string, fallback?: Node | null) =>
    findings.push({ ...at(node, fallback), message });

  for (const e of doc.errors) {
    const pos = lines.linePos(e.pos[0]);
    const message = e.message.split('\n')[0];
    // the YAML parser's own stack ran out: a value nested far deeper than a run may hold one
    findings.push({ line: pos.line, column: pos.col, message: /^Maximum call stack size exceeded/.test(message) ? `${message} ${NESTED_TOO_DEEP}` : message });
  }
  if (findings.length) throw scriptInvalid(file, findings);

  const turns: ScriptTurn[] = [];
  const phases: (string | null)[] = [];
  const root = doc.contents;
  if (!isMap(root)) {
    fail(root, 'a model script is a mapping with a `turns:` list');
    throw scriptInvalid(file, findings);
  }
  for (const pair of root.items) {
    const key = keyOf(pair);
    if (key !== 'turns') fail(pair.key as Node, `unknown key \`${key}\` at the top of the script; the only key is \`turns\``);
  }
  const turnsNode = root.get('turns', true) as Node | undefined;
  if (!isSeq(turnsNode)) {
    fail(turnsNode, turnsNode ? '`turns` must be a list of turns' : 'the script has no `turns:` list', root);
  } else if (turnsNode.items.length === 0) {
    fail(turnsNode, '`turns` is empty; add at least one turn');
  } else {
    turnsNode.items.forEach((item, i) => {
      const where = `turn ${i + 1}`;
      const node = item as Node;
      if (!isMap(node)) {
        fail(node, `${where} must be a mapping with text, tool_calls or finish`, turnsNode);
        return;
      }
      for (const pair of node.items) {
        const key = keyOf(pair);
        if (!TURN_KEYS.includes(key)) fail(pair.key as Node, `unknown key \`${key}\` in ${where}; a turn has ${TURN_KEYS.join(', ')}`);
      }
      const value = (k: string) => node.get(k, true) as Node | undefined;
      const json = (k: string): Json | undefined => {
        const v = value(k);
        return v === undefined ? undefined : (v.toJS(doc as Document) as Json);
      };

      let phase: string | null = null;
      if (node.has('phase')) {
        const p = json('phase');
        if (typeof p !== 'string' || p.trim() === '') fail(value('phase'), `${where}: \`phase\` must be a phase name`);
        else phase = p;
      }
      let text = '';
      if (node.has('text')) {
        const t = json('text');
        if (typeof t !== 'string') fail(value('text'), `${where}: \`text\` must be a string`);
        else text = t;
      }
      const toolCalls: ScriptTurn['toolCalls'] = [];
      if (node.has('tool_calls')) {
        const calls = value('tool_calls');
        if (!isSeq(calls)) fail(calls, `${where}: \`tool_calls\` must be a list of { op, args }`, node);
        else {
          calls.items.forEach((c, j) => {
            const call = c as Node;
            const cwhere = `${where}, tool call ${j + 1}`;
            if (!isMap(call)) return void fail(call, `${cwhere} must be a mapping { op, args }`, calls);
            for (const pair of call.items) {
              const key = keyOf(pair);
              if (!TOOL_CALL_KEYS.includes(key)) fail(pair.key as Node, `unknown key \`${key}\` in ${cwhere}; a tool call has op and args (ids are assigned: call_<round>_<index>)`);
            }
            const op = call.has('op') ? (call.get('op', true) as Node).toJS(doc as Document) : undefined;
            const args = call.has('args') ? (call.get('args', true) as Node).toJS(doc as Document) : {};
            if (typeof op !== 'string' || op.trim() === '') fail((call.get('op', true) as Node) ?? call, `${cwhere}: \`op\` must be an op name, e.g. file/read`);
            if (valueDepth(args) > MAX_JSON_DEPTH) fail((call.get('args', true) as Node) ?? call, `${cwhere}: \`args\` ${nestedDeep(args)}`);
            else if (!isJsonObject(args) || !isJson(args)) fail((call.get('args', true) as Node) ?? call, `${cwhere}: \`args\` must be a JSON object`);
            if (typeof op === 'string' && isJsonObject(args)) toolCalls.push({ op, args });
          });
        }
      }
      let finish: JsonObject | null = null;
      if (node.has('finish')) {
        const f = json('finish');
        if (valueDepth(f) > MAX_JSON_DEPTH) fail(value('finish'), `${where}: \`finish\` ${nestedDeep(f)}`);
        else if (f !== null && (!isJsonObject(f) || !isJson(f))) fail(value('finish'), `${where}: \`finish\` must be a JSON object (the finish artifact)`);
        else finish = f;
      }
      let usage: ScriptTurn['usage'];
      if (node.has('usage')) {
        const u = value('usage');
        const uv = json('usage');
        if (!isMap(u) || !isJsonObject(uv)) fail(u, `${where}: \`usage\` must be { input_tokens, output_tokens }`, node);
        else {
          for (const pair of u.items) {
            const key = keyOf(pair);
            if (!USAGE_KEYS.includes(key)) fail(pair.key as Node, `unknown key \`${key}\` in ${where} usage; usage has ${USAGE_KEYS.join(', ')}`);
          }
          const count = (k: string): number => {
            const n = uv[k] ?? 0;
            if (typeof n === 'number' && Number.isInteger(n) && n >= 0) return n;
            fail(u.get(k, true) as Node, `${where}: usage.${k} must be a whole number of tokens`, u);
            return 0;
          };
          usage = { inputTokens: count('input_tokens'), outputTokens: count('output_tokens') };
        }
      }
      if (!node.has('text') && !node.has('tool_calls') && !node.has('finish')) {
        fail(node, `${where} says nothing: give it text, tool_calls or finish`);
      }
      const previous = phases.length ? phases[phases.length - 1] : null;
      phases.push(phase ?? previous);
      turns.push({ text, toolCalls, finish, ...(usage ? { usage } : {}), line: at(node).line });
    });
  }
  if (findings.length) throw scriptInvalid(file, findings);

  const blocks: ScriptBlock[] = [];
  turns.forEach((turn, i) => {
    const last = blocks[blocks.length - 1];
    if (last && last.phase === phases[i]) last.turns.push(turn);
    else blocks.push({ phase: phases[i], turns: [turn] });
  });
  return { file, blocks };
}

const NESTED_TOO_DEEP = `(the script nests too deep: at most ${MAX_JSON_DEPTH} levels are accepted, as for any value of a run)`;

/** what is said of a value nested deeper than MAX_JSON_DEPTH: the turn would fail its run (phase-runner.ts), so the script is refused */
function nestedDeep(v: unknown): string {
  return `is nested ${valueDepth(v, Infinity)} levels deep; at most ${MAX_JSON_DEPTH} levels are accepted, as for any value of a run: flatten it`;
}

function keyOf(pair: Pair): string {
  return isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
}

/** Plain JSON: what YAML can hold beyond it (`.inf`, `.nan`) has no place in an artifact. */
function isJson(v: unknown): v is Json {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(isJson);
  if (isJsonObject(v)) return Object.values(v).every(isJson);
  return false;
}

function scriptInvalid(file: string, findings: Finding[]): ModelScriptInvalidError {
  findings.sort((a, b) => a.line - b.line || a.column - b.column);
  const first = findings[0];
  const more = findings.length > 1 ? ` (and ${findings.length - 1} more)` : '';
  return new ModelScriptInvalidError(
    `${file}:${first.line}:${first.column}: ${first.message}${more}. Fix the model script; no turn was served.`,
    {
      file,
      line: first.line,
      column: first.column,
      errors: findings.map((f) => ({ line: f.line, column: f.column, message: f.message })),
    },
  );
}
