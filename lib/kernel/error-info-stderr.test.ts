// A code step or a user capability that printed to stderr before it raised: its recorded error holds
// that stderr (a step's `stderrTail`, a stage's message ending "Last stderr: …"), the CLI prints it,
// but errorInfo — what the run page reads — kept the message's first line and the stack only, so the
// page never showed what the code printed. It is now `stderr` beside them (absent when there is none).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorInfo } from './error-info';

const ROOT = '/data/bundles/ab12';

test("a failed python step's stderr tail is kept apart, its bundle paths relative", () => {
  const info = errorInfo(
    {
      code: 'code_failed',
      message: `python function boom in ${ROOT}/boom.py raised ZeroDivisionError: division by zero (at ${ROOT}/boom.py:5)\nTraceback …\nLast stderr:\nabout to fail: reading ${ROOT}/data.csv`,
      traceback: `Traceback (most recent call last):\n  File "${ROOT}/boom.py", line 5, in boom\nZeroDivisionError: division by zero\n`,
      stderrTail: `about to fail: reading ${ROOT}/data.csv\n`,
      where: `${ROOT}/boom.py:5`,
    },
    [ROOT],
  );
  assert.equal(info?.message, 'python function boom in boom.py raised ZeroDivisionError: division by zero (at boom.py:5)');
  assert.equal(info?.stderr, 'about to fail: reading data.csv');
  assert.deepEqual(info?.where, { file: 'boom.py', line: 5 });
});

test("a crashed capability's stderr, from the tail its message ends with", () => {
  const info = errorInfo(
    {
      message: `node function checker in ${ROOT}/caps.mjs raised TypeError: too long (at ${ROOT}/caps.mjs:3:30)\nTypeError: too long\n    at checker (file://${ROOT}/caps.mjs:3:30)\nLast stderr:\nchecker: inspecting turn`,
      stack: `TypeError: too long\n    at checker (file://${ROOT}/caps.mjs:3:30)`,
    },
    [ROOT],
  );
  assert.equal(info?.stderr, 'checker: inspecting turn');
  assert.match(info?.stack ?? '', /at checker \(caps\.mjs:3:30\)/);
});

test('an error without stderr has no stderr key: the shape it had', () => {
  assert.deepEqual(errorInfo({ code: 'x', message: 'boom', stack: null }, [ROOT]), { code: 'x', message: 'boom', stack: null, where: null });
  assert.deepEqual(Object.keys(errorInfo({ message: 'a\nLast stderr:\n', stderrTail: '' }, [ROOT]) ?? {}), ['code', 'message', 'stack', 'where']);
});
