/**
 * Text bound for an operator's terminal — the CLI's output, the app's and the workers' log lines —
 * with the characters that would command the terminal shown as `\x1b`, `\x07`…: that text holds a
 * run's own (a step's error message, the tail of its stderr, a model's words, a value), and an escape
 * sequence in it could clear the screen, retitle the window, write the clipboard (OSC 52), make a
 * link say one thing and open another, or put a line over another (`\r`). Tabs and newlines stay.
 *
 * Owns: which characters are shown so, and how. Does not: decide when (the CLI leaves output to a
 * pipe byte for byte; a log line is always shown so, since a log file is read on a terminal later).
 */

/** C0 controls but tab and newline, DEL, and C1 controls (a lone ESC, CSI, OSC…) */
const TERMINAL_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** `s` with each terminal control shown as `\xNN` (text without one comes back as it was) */
export function forTerminal(s: string): string {
  return s.replace(TERMINAL_CONTROLS, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
