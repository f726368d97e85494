// The app's log lines carry a run's own text — here an internal error quoting a step's message, as a
// store error quotes the value it refused — and a step can put escape sequences in it (retitle the
// window, clear the screen, a link that shows one address and opens another). The operator's terminal
// (npm start's, or `tail -f` of the log file) gets them shown as `\x1b`…, never sent raw.
import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import { errorResponse } from './http/route';
import { serverLog } from './log';

const ESCAPES = 'see \x1b]8;;http://elsewhere.example\x07the docs\x1b]8;;\x07\x1b]0;retitled\x07\x1b[2J\rdone';

function logged(fn: () => void): string {
  const lines: string[] = [];
  const spies = (['log', 'warn', 'error'] as const).map((m) => mock.method(console, m, (...args: unknown[]) => void lines.push(args.map(String).join(' '))));
  try {
    fn();
  } finally {
    for (const s of spies) s.mock.restore();
  }
  return lines.join('\n');
}

test("an internal error's message with escape sequences is logged with them shown, not sent", () => {
  const out = logged(() => void errorResponse(new Error(`the step's output was refused: ${ESCAPES}`)));
  assert.match(out, /stagecraft: internal error answering a request:/);
  assert.ok(!/[\x00-\x08\x0b-\x1f\x7f]/.test(out), `a control character reached the log: ${JSON.stringify(out)}`);
  assert.ok(out.includes('see \\x1b]8;;http://elsewhere.example\\x07the docs'), out);
  assert.ok(out.includes('\\x1b[2J\\x0ddone'), out);
});

test('each level of serverLog shows the controls and keeps tabs and newlines', () => {
  const out = logged(() => {
    serverLog.info(`stagecraft: run r1 of s: ${ESCAPES}`);
    serverLog.warn('stagecraft: a\tb\nc \x1b[31m');
    serverLog.error('stagecraft: run r1 stopped:', new Error(ESCAPES));
  });
  assert.ok(!/[\x00-\x08\x0b-\x1f\x7f]/.test(out), JSON.stringify(out));
  assert.ok(out.includes('a\tb\nc \\x1b[31m'), out);
  assert.ok(out.includes('stagecraft: run r1 stopped: Error: see \\x1b]8;;'), out);
});
