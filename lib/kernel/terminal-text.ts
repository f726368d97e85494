/**
 * Text bound for an operator's terminal — the CLI's output, the app's and the workers' log lines —
 * with the characters that would command the terminal shown as `\x1b`, `\x07`…: that text holds a
 * run's own (a step's error message, the tail of its stderr, a model's words, a value), and an escape
 * sequence in it could clear the screen, retitle the window, write the clipboard (OSC 52), make a
 * link say one thing and open another, or put a line over another (`\r`). Tabs and newlines stay.
 *
 * Owns: which characters are shown so, and how; and what a step or capability printed made readable
 * (`readableText`: its colour codes and other CSI sequences dropped, every other control shown so), and
 * JSON for a terminal (`jsonForTerminal`: the controls JSON leaves raw as JSON escapes).
 * Does not: decide when (the CLI shows them to a terminal, a pipe or a file alike, but for `--json`
 * to a pipe or a file, left byte for byte; a log line is always shown
 * so, since a log file is read on a terminal later; printed output is made readable wherever it is
 * shown as text — the run page, `stagecraft events` — while its record keeps the bytes as printed).
 * Imports nothing: the run page's components use it too.
 */

/** C0 controls but tab and newline, DEL, and C1 controls (a lone ESC, CSI, OSC…) */
const TERMINAL_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * JSON text `s` for a terminal: each control JSON leaves as it is (DEL and the C1 controls: JSON escapes
 * only C0) written as its JSON escape `\u009b`, the same string to a parser, and nothing a terminal obeys
 * (`\x9b` would be neither). Only JSON text: a control outside a string would be made one.
 */
export function jsonForTerminal(s: string): string {
  return s.replace(TERMINAL_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `s` with each terminal control shown as `\xNN` (text without one comes back as it was) */
export function forTerminal(s: string): string {
  return s.replace(TERMINAL_CONTROLS, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/**
 * A CSI sequence (ECMA-48): ESC [ or the C1 CSI, parameter bytes, intermediate bytes, a final byte.
 * SGR (colours, bold: `ESC[31m`) is one; so are cursor moves and erasures (`ESC[2K`, `ESC[2J`).
 */
const CSI_SEQUENCE = /(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]/g;

/**
 * What code printed, made readable as text: a tool's colour codes and every other CSI sequence
 * dropped (they style or move a terminal's cursor, and say nothing read as text), then each control
 * left but tab and newline shown as `\xNN` (an OSC title, a bell, a lone ESC, a carriage return), so
 * nothing in it can command a terminal either. For display only: the record keeps the bytes.
 */
export function readableText(s: string): string {
  return forTerminal(s.replace(CSI_SEQUENCE, ''));
}
