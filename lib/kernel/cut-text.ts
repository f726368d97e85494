/**
 * Words cut short to fit a line or a row: at most `n` UTF-16 units, the last of them `…`. A cut by
 * index alone can fall between the halves of a surrogate pair (an emoji, a rare CJK character): the
 * lone half left is no character, and JSON.stringify writes it as `\udXXX`, which /api/runs then
 * carried to every client. Here the cut steps back before such a pair, so what is kept is whole text.
 *
 * Owns: where a cut falls. Does not: choose `n` (each caller does). Free of imports: browser code
 * (the studio) and the CLI use it as it is.
 */

/** `s` whole when it has at most `n` UTF-16 units, else its start and `…` (n units at most, no pair split) */
export function cutText(s: string, n: number): string {
  if (s.length <= n) return s;
  let end = n - 1;
  const last = s.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--; // the high half of a pair whose low half would go
  return `${s.slice(0, end)}…`;
}
