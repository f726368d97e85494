/**
 * Large values, referenced instead of sent: every free value a view carries
 * (a chain value, a message, a tool result, a step's input or output) goes in
 * a `ValueSlot` — inline when its JSON text is short, otherwise its size, a
 * preview and a `ValueRef` to fetch it whole. A 5 MB tool result costs a page
 * a few hundred characters until someone opens it.
 *
 * A `ValueRef` names a document at a seq and a JSON Pointer into it:
 * `state/…` is the state at that seq (fold-state.ts), `item/…` the detail of
 * the item recorded at that seq (inspect-item.ts), `event/…` the event
 * itself. `resolvePointer` reads one.
 *
 * Owns: the slot rule and pointers. Does not: fetch anything (lib/server does).
 */
import type { Json } from './json';
import { isJsonObject } from './json';

/** values whose JSON text is longer than this are referenced, not inlined */
export const INLINE_VALUE_MAX_CHARS = 4096;
/** characters of a referenced value shown in its preview */
export const VALUE_PREVIEW_CHARS = 240;

export type ValueRef = { seq: number; path: string };

/** `size`: characters of the value's JSON text */
export type ValueSlot = { size: number; value: Json } | { size: number; preview: string; ref: ValueRef };

const TEXTS = new WeakMap<object, string>();

/** the JSON text of a value (computed once per object: the fold shares its values between states) */
function textOf(v: Json): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  let t = TEXTS.get(v);
  if (t === undefined) TEXTS.set(v, (t = JSON.stringify(v)));
  return t;
}

/** The characters of a value's JSON text; a string's without serialising it. */
export function sizeOf(v: Json): number {
  return typeof v === 'string' ? v.length + 2 : textOf(v).length;
}

export function slot(v: Json | undefined, ref: ValueRef, max = INLINE_VALUE_MAX_CHARS): ValueSlot {
  const value = v === undefined ? null : v;
  const size = sizeOf(value);
  if (size <= max) return { size, value };
  const preview = typeof value === 'string' ? value.slice(0, VALUE_PREVIEW_CHARS) : textOf(value).slice(0, VALUE_PREVIEW_CHARS);
  return { size, preview, ref };
}

const escape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
const unescape = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');

/** a pointer `root/a/0/b` from its segments (each escaped as RFC 6901 says) */
export function pointer(root: 'state' | 'item' | 'event', ...segments: (string | number)[]): string {
  return [root, ...segments.map((s) => escape(String(s)))].join('/');
}

/** The value a pointer names inside `doc` (the part after the root word); undefined when it names nothing. */
export function resolvePointer(doc: unknown, path: string): Json | undefined {
  const parts = path.split('/').slice(1).map(unescape);
  let cur: unknown = doc;
  for (const p of parts) {
    if (Array.isArray(cur)) cur = /^\d+$/.test(p) ? cur[Number(p)] : undefined;
    else if (isJsonObject(cur as Json)) cur = Object.prototype.hasOwnProperty.call(cur, p) ? (cur as Record<string, unknown>)[p] : undefined;
    else return undefined;
    if (cur === undefined) return undefined;
  }
  return cur as Json;
}
