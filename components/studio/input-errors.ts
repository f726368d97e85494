// The run input as typed: parsed, checked against the entry phase's input
// contract, and every error located at a line and column of the text — a JSON
// syntax error where the parser stopped, a contract error at the value its
// JSON pointer names (YAML's parser reads JSON with source ranges). The fork
// editor checks the value it edits the same way (checkJsonText).
import { checkInput } from '@/lib/skill/input-check';
import { jsonErrorPosition } from '@/lib/skill/text-position';
import { locatePointer } from '@/lib/skill/pointer-position';
import type { JsonSchema } from '@/lib/kernel/json';

export type InputProblem = { line: number; column: number; message: string };
export type CheckedInput = { value: Record<string, unknown> | null; problems: InputProblem[] };

const describe = (v: unknown) => (Array.isArray(v) ? 'an array' : v === null ? 'null' : typeof v);

/**
 * Any JSON value as typed (a run input, a value edited at a fork point): parsed, required to be an
 * object where `object` says so, checked against `schema` when there is one, every error located.
 * `value` is undefined while the text is not JSON (or not an object where one is needed).
 */
export function checkJsonText(text: string, opts: { what: string; object?: boolean; schema?: JsonSchema | null; schemaNote?: string }): { value: unknown; problems: InputProblem[] } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const msg = (e as Error).message;
    const at = jsonErrorPosition(text) ?? { line: 1, column: 1 };
    return { value: undefined, problems: [{ ...at, message: `not valid JSON: ${withoutLocation(msg)}` }] };
  }
  if (opts.object && (value === null || typeof value !== 'object' || Array.isArray(value))) {
    return { value: undefined, problems: [{ line: 1, column: 1, message: `${opts.what} must be a JSON object, not ${describe(value)}` }] };
  }
  if (!opts.schema) return { value, problems: [] };
  const note = opts.schemaNote ? ` (${opts.schemaNote})` : '';
  const problems = checkInput(opts.schema, value).map((e) => ({ ...locatePointer(text, e.pointer), message: `${e.pointer || `(${opts.what})`} ${e.message}${note}` }));
  return { value, problems };
}

/**
 * The parser's message without the location it names: the problem is shown at line:column already
 * (V8 says 'in JSON at position 13 (line 2 column 3)', Firefox 'at line 2 column 3 of the JSON data').
 */
function withoutLocation(msg: string): string {
  return msg
    .replace(/^JSON\.parse: /, '')
    .replace(/ in JSON at position \d+(?: \(line \d+ column \d+\))?/, '')
    .replace(/ at line \d+ column \d+ of the JSON data/, '');
}

export function checkInputText(text: string, contract: { phase: string; schema: JsonSchema } | null): CheckedInput {
  const r = checkJsonText(text, { what: 'the input', object: true, schema: contract?.schema, schemaNote: contract ? `the input contract of phase ${contract.phase}` : undefined });
  return { value: r.value === undefined ? null : (r.value as Record<string, unknown>), problems: r.problems };
}
