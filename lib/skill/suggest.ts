/**
 * "Did you mean" for skill.md: the closest allowed word to a misspelt one.
 *
 * Owns: the edit distance (Damerau–Levenshtein, optimal string alignment: a
 * swap of two adjacent letters counts as one edit, so `tolos` → `tools` is 1)
 * and the threshold for "close enough to suggest". Does not: decide where a
 * suggestion is worth making — callers pass the words allowed at that place.
 *
 * Hand-written rather than a library: twenty lines, no dependency for the
 * browser editor, and the threshold is ours to tune.
 */

export function editDistance(a: string, b: string): number {
  const n = a.length;
  const m = b.length;
  if (n === 0) return m;
  if (m === 0) return n;
  // d[i][j]: distance between a[0..i) and b[0..j)
  const d: number[][] = Array.from({ length: n + 1 }, (_, i) => {
    const row = new Array<number>(m + 1).fill(0);
    row[0] = i;
    return row;
  });
  for (let j = 0; j <= m; j++) d[0][j] = j;
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2][j - 2] + 1);
      d[i][j] = v;
    }
  }
  return d[n][m];
}

/**
 * How many edits still read as a typo between two words this long: one for
 * short words, so `## Intro` is not taken for phase `entry`, nor `## Overview`
 * for `review`.
 */
function maxEditsFor(a: string, b: string): number {
  const len = Math.max(a.length, b.length);
  if (len <= 5) return 1;
  if (len <= 10) return 2;
  return 3;
}

/**
 * The allowed word closest to `word` (case-insensitive), or undefined when
 * none is close enough to be a plausible typo. An exact match is not a
 * suggestion: it returns undefined.
 */
export function didYouMean(word: string, allowed: Iterable<string>): string | undefined {
  const w = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of allowed) {
    if (candidate === word) return undefined;
    const distance = editDistance(w, candidate.toLowerCase());
    if (distance <= maxEditsFor(word, candidate) && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Ends a sentence: \` — did you mean \`x\`?\` when one is close, else a full stop. */
export function suggestionSuffix(word: string, allowed: Iterable<string>): string {
  const s = didYouMean(word, allowed);
  return s === undefined ? '.' : ` — did you mean \`${s}\`?`;
}
