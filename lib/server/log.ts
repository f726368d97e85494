/**
 * The app's log lines (the server's stdout and stderr: `npm start`'s terminal, or a file read on one
 * later). Many carry a run's own text — an error a run stopped on, a step's message, a value quoted
 * by an internal error — and a code step can put escape sequences in it: each line is shown with
 * them as `\x1b`…, never obeyed (lib/kernel/terminal-text.ts, as the CLI shows them on a terminal).
 * Arguments are formatted as console.log formats them (an Error with its stack), then shown so.
 */
import { format } from 'node:util';
import { forTerminal } from '../kernel/terminal-text';

export const serverLog = {
  info: (...args: unknown[]): void => console.log(forTerminal(format(...args))),
  warn: (...args: unknown[]): void => console.warn(forTerminal(format(...args))),
  error: (...args: unknown[]): void => console.error(forTerminal(format(...args))),
};
