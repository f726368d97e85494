/**
 * PORT as `npm start` hands it to `next start`: a whole number from 1 to 65535 (default 3000). Checked before
 * the app starts: `next start` answered `abc` with its own option's words (not naming PORT) and 70000 with an
 * unhandled RangeError and its stack, after "starting on …:70000" had been printed.
 */
export const DEFAULT_PORT = 3000;

/** Why `raw` (PORT) cannot be listened on, or null when it can (unset or empty: the default). */
export function portProblem(raw: string | undefined): string | null {
  if (raw === undefined || raw.trim() === '') return null;
  // digits only: next reads PORT with parseInt, so `0x10` (Number: 16) would listen on port 0 and `1e3` on port 1
  const n = /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
  if (Number.isInteger(n) && n >= 1 && n <= 65535) return null;
  return `PORT=${JSON.stringify(raw)}: give the app's port as a whole number from 1 to 65535 (default ${DEFAULT_PORT}).`;
}
