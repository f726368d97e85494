/**
 * The memo key of a large value, made across turns of the event loop: the
 * same key as memoKey (memo.ts), byte for byte, but its canonical JSON is made
 * and hashed in pieces, with a turn after each LARGE_VALUE_CHARS of text. A
 * step's input near the 16 MB cap costs about a second to key at once, and the
 * server's every request would wait for it.
 *
 * Owns: the pieces (canonicalPieces: their concatenation is canonicalJson) and
 * the turns. Invariant: the key equals memoKey's. Does not: decide which
 * values are large (a caller asks isLargeValue, a lookup of a size already
 * known, never a walk), or key small values (memoKey does, at once).
 */
import { createHash } from 'node:crypto';
import { setImmediate as turn } from 'node:timers/promises';
import { canonicalJson, quotedKey, sortedKeys } from './memo';
import { knownChars } from './value-size';

/** a value over this many characters of JSON is keyed across turns; so many characters are hashed per turn */
export const LARGE_VALUE_CHARS = 1024 * 1024;
/** how many characters of text are gathered before they are hashed */
const PIECE_CHARS = 64 * 1024;
/** containers this deep or deeper are written whole (but long arrays, at any depth) */
const OPEN_DEPTH = 3;
const LONG_ARRAY = 64;

/** Whether `v` is known to be over LARGE_VALUE_CHARS (a size remembered for it: a step's output, a merged value). */
export function isLargeValue(v: unknown): boolean {
  return (knownChars(v) ?? 0) > LARGE_VALUE_CHARS;
}

/** canonicalJson(v) in pieces, in order (their concatenation is it): containers near the top, and long arrays, opened. */
export function* canonicalPieces(v: unknown, depth = 0): Generator<string> {
  if (typeof v !== 'object' || v === null || (depth >= OPEN_DEPTH && !(Array.isArray(v) && v.length >= LONG_ARRAY))) {
    yield canonicalJson(v);
    return;
  }
  if (Array.isArray(v)) {
    yield '[';
    for (let i = 0; i < v.length; i++) {
      if (i > 0) yield ',';
      yield* canonicalPieces(v[i], depth + 1);
    }
    yield ']';
    return;
  }
  const o = v as Record<string, unknown>;
  yield '{';
  let first = true;
  for (const k of sortedKeys(o)) {
    const x = o[k];
    if (x === undefined) continue;
    yield `${first ? '' : ','}${quotedKey(k)}:`;
    yield* canonicalPieces(x, depth + 1);
    first = false;
  }
  yield '}';
}

/** memoKey(phase, position, defHash, input), hashed in pieces with a turn after each LARGE_VALUE_CHARS. */
export async function memoKeyTurning(phase: string, position: string, defHash: string, input: unknown): Promise<string> {
  const h = createHash('sha256');
  let text = '';
  let sinceTurn = 0;
  for (const piece of canonicalPieces([phase, position, defHash, input])) {
    text += piece;
    if (text.length < PIECE_CHARS) continue;
    h.update(text);
    sinceTurn += text.length;
    text = '';
    if (sinceTurn >= LARGE_VALUE_CHARS) {
      sinceTurn = 0;
      await turn();
    }
  }
  h.update(text);
  return h.digest('hex').slice(0, 32);
}
