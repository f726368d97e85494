/**
 * How deep a JSON text nests, checked before it is parsed or handed
 * on: a run's input, a request body, a code step's reply. A value nested
 * deeper than MAX_JSON_DEPTH is refused with a clear error instead of
 * overflowing a recursive parser, serializer or schema check somewhere later.
 *
 * Owns: the limit and the scan (iterative: any depth is measured without
 * recursion). Does not: parse or validate anything else.
 */
export const MAX_JSON_DEPTH = 128;

/** The deepest nesting of arrays and objects in a JSON text (strings skipped); stops counting past `limit`. */
export function jsonTextDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}
