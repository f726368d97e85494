/**
 * How deep a JSON text nests, checked before it is parsed or handed
 * on: a run's input, a request body, a code step's reply; and how deep a
 * value nests, checked where one made elsewhere enters a run (a model's
 * answer, phase-runner.ts). A value nested
 * deeper than MAX_JSON_DEPTH is refused with a clear error instead of
 * overflowing a recursive parser, serializer or schema check somewhere later.
 *
 * Owns: the limit, the scan and the walk (iterative: any depth is measured
 * without recursion). Does not: parse or validate anything else.
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

/**
 * The deepest nesting of arrays and objects in a value (a JSON text's depth, were it written);
 * stops counting past `limit`. Iterative: a value nested 100,000 deep is measured without recursion.
 */
export function valueDepth(v: unknown, limit = MAX_JSON_DEPTH): number {
  if (typeof v !== 'object' || v === null) return 0;
  let max = 0;
  const values: object[] = [v];
  const depths: number[] = [1];
  while (values.length > 0) {
    const x = values.pop()!;
    const d = depths.pop()!;
    if (d > max) {
      max = d;
      if (max > limit) return max;
    }
    const members: unknown[] = Array.isArray(x) ? x : Object.values(x);
    for (let i = 0; i < members.length; i++) {
      const y = members[i];
      if (typeof y === 'object' && y !== null) {
        values.push(y);
        depths.push(d + 1);
      }
    }
  }
  return max;
}
