/**
 * An event's data with its JSON text already built: a step's record (step.ts) is mostly known
 * before its call returns — its label, kind, position, key, definition — so that part's text is
 * built while the call is in flight (`stepHead`), and once it returns only its status, output and
 * duration are encoded and appended. The journal measures the unit by it and the store writes it
 * (wire.ts) instead of encoding the data again on the step's critical path.
 *
 * Owns: the texts, by the data object's identity (a WeakMap: nothing is kept past the data). A
 * text is exactly JSON.stringify(data): the data is built with the same members in the same order,
 * and event data is never changed once appended. Does not: decide what a step records (step.ts).
 */
import type { JsonObject } from './json';
import { merged } from './json';
import type { PrintedOutput } from './ports';

const TEXTS = new WeakMap<object, string>();

/** the JSON text built with `data` (exactly JSON.stringify(data)), if any */
export const knownText = (data: unknown): string | undefined => (typeof data === 'object' && data !== null ? TEXTS.get(data) : undefined);

/**
 * The members of a step's record that come before its result, and their JSON text without its
 * closing brace; `output`: the step's result with its JSON text, once the step has returned it
 * and it was measured by that text (processors.ts), so that the record does not encode it again.
 */
export type StepHead = { fields: JsonObject; text: string; output?: { value: unknown; text: string } };

/** the members a step's record ends with: a label that holds one of them would put it elsewhere in the text */
const TAIL = ['status', 'output', 'durationMs', 'stdout', 'stderr'];

/**
 * A code step's printed output as the members its record ends with: `stdout` and `stderr`, each only
 * when that stream had something; nothing (null) when the step printed nothing, so that the record
 * of a step that prints nothing is what it always was.
 */
export function printedFields(printed: PrintedOutput | undefined): { stdout?: string; stderr?: string } | null {
  if (!printed || (!printed.stdout && !printed.stderr)) return null;
  const out: { stdout?: string; stderr?: string } = {};
  if (printed.stdout) out.stdout = printed.stdout;
  if (printed.stderr) out.stderr = printed.stderr;
  return out;
}

/** `fields` (a step's record but its tail) with its text, or null when its label holds a member of the tail */
export function stepHead(fields: JsonObject): StepHead | null {
  if (TAIL.some((k) => Object.hasOwn(fields, k))) return null;
  const text = JSON.stringify(fields);
  return text.length > 2 ? { fields, text: text.slice(0, -1) } : null;
}

/**
 * The record `head` makes with its tail, its text remembered: the same object and text as
 * JSON.stringify(merged(head.fields, { status, output, durationMs, ...printedFields(printed) })).
 * Null for an output JSON cannot encode, or whose text passes `maxOutputChars` (jsonChars counts the
 * same characters): the caller then builds the record as before, and refuses it.
 */
export function withTail(head: StepHead, status: string, output: unknown, durationMs: number, maxOutputChars = Infinity, printed?: PrintedOutput): JsonObject | null {
  if (output === undefined || typeof output === 'function' || typeof output === 'symbol') return null;
  const out = head.output?.value === output ? head.output.text : JSON.stringify(output);
  if (out.length > maxOutputChars) return null;
  const shown = printed && printedFields(printed);
  const data = shown ? merged(head.fields, { status, output: output as JsonObject, durationMs, ...shown }) : merged(head.fields, { status, output: output as JsonObject, durationMs });
  const text = `${head.text},"status":${JSON.stringify(status)},"output":${out},"durationMs":${JSON.stringify(durationMs)}`;
  TEXTS.set(data, shown ? `${text},${JSON.stringify(shown).slice(1)}` : `${text}}`);
  return data;
}
