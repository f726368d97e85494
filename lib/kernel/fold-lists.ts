/**
 * Reading seq-ordered lists at a point of the log: the latest value of a
 * change list at k, and how many records are at or before k (binary searches,
 * so a state at k costs log n per list, not k).
 */

/** A value that changed at a seq; read with `valueAt(list, k)`. */
export type Change<T> = { seq: number; value: T };

/** the latest value of a change list at seq k */
export function valueAt<T>(list: readonly Change<T>[], k: number, fallback: T): T {
  let lo = 0;
  let hi = list.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].seq <= k) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found < 0 ? fallback : list[found].value;
}

/** how many of a seq-ordered list are at or before k */
export function countAt(list: readonly { seq: number }[], k: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].seq <= k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** how many of an ascending list of seqs are at or before k */
export function countSeqs(seqs: readonly number[], k: number): number {
  let lo = 0;
  let hi = seqs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (seqs[mid] <= k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
