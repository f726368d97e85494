/**
 * A word of a command printed for the user to paste into a shell (`stagecraft validate <path>`, a
 * folder to cd to, a --set to retype): as it is when it holds only characters no POSIX shell reads
 * specially, else in single quotes — a quote inside written '\'' — so the shell gives the command
 * exactly that word back (a space, `$`, `*`, `;`, `'`, `!` and all).
 *
 * Owns: the quoting. Does not: decide which words are printed (the message does).
 */
const PLAIN = /^[\w./@%+:,=-]+$/;

export function shellWord(s: string): string {
  return PLAIN.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
