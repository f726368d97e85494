// `stagecraft run`'s words for a run that ended in an error: the bundle's files by their names (as the
// report names them), never the data dir's copy of the bundle, and the traceback once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { printedLines, printSummary, reusedLine } from './print';
import { printedText } from '../lib/kernel/error-info';
import type { RunSummary } from '../lib/server/runs/run-summary';

const COPY = '/home/u/.stagecraft/bundles/72f3ddcbf8be4c3543a2a06c57c358ba1e582ea0c69e90a886768bb260ef1ead';
const TRACE = (dir: string) => `Traceback (most recent call last):\n  File "${dir}sanitize.py", line 11, in sanitize\n    raise KeyError("paragraphz")\nKeyError: 'paragraphz'`;

function printed(s: Partial<RunSummary>): string {
  const lines: string[] = [];
  printSummary({ runId: 'run_x', status: 'aborted', output: null, error: null, report: null, traces: [], steps: [], ...s } as RunSummary, {
    out: (l) => lines.push(l),
    err: (l) => lines.push(l),
    stdin: async () => '',
  });
  return lines.join('\n');
}

test('a step that raised: its error names sanitize.py, not the bundle copy, and its traceback is printed once', () => {
  const raised = `python function sanitize in ${COPY}/sanitize.py raised KeyError: 'paragraphz' (at ${COPY}/sanitize.py:11)`;
  const out = printed({
    error: { code: 'workflow_aborted', message: `postprocessor step 0 (python, skill.md line 30) failed: ${raised}\n${TRACE(`${COPY}/`)}` },
    report: {
      outcome: 'blocked',
      block_reason: `postprocessor step 0 (python, skill.md line 30) failed: python function sanitize in sanitize.py raised KeyError: 'paragraphz' (at sanitize.py:11)\n${TRACE('')}`,
      failed_stage: null,
      error: { code: 'code_failed', message: "python function sanitize in sanitize.py raised KeyError: 'paragraphz' (at sanitize.py:11)", stack: `${TRACE('')}\n`, where: { file: 'sanitize.py', line: 11 }, position: '__post__/0' },
    } as unknown as RunSummary['report'],
  });
  assert.ok(!out.includes(COPY), out);
  assert.match(out, /^error \[workflow_aborted\]: python function sanitize in sanitize\.py raised KeyError/m);
  assert.equal(out.split('Traceback (most recent call last):').length - 1, 1, out);
});

test('a failed run whose reason is not printed above: the report’s message and its stack, relative', () => {
  const out = printed({
    status: 'failed',
    error: { code: 'stage_crashed', message: `boom in ${COPY}/caps.mjs` },
    report: {
      outcome: 'failed',
      block_reason: null,
      failed_stage: null,
      error: { code: 'stage_crashed', message: 'boom in caps.mjs', stack: 'Error: boom\n    at check (caps.mjs:4:9)\n', where: null, position: null },
    } as unknown as RunSummary['report'],
  });
  assert.match(out, /^error \[stage_crashed\]: boom in caps\.mjs$/m);
  assert.match(out, /at check \(caps\.mjs:4:9\)/);
  assert.ok(!out.includes(COPY), out);
});

test('without a report error (an abort someone asked for) the run error is said as it is', () => {
  const out = printed({ error: { code: 'run_aborted', message: 'aborted on request by cli: not needed' }, report: { outcome: 'blocked', block_reason: null, failed_stage: null, error: null } as unknown as RunSummary['report'] });
  assert.match(out, /^error \[run_aborted\]: aborted on request by cli: not needed$/m);
});

test('a run aborted on request with no reason given: its outcome line has no dangling colon or double space', () => {
  for (const reason of [undefined, '', '  ']) {
    const out = printed({ report: { outcome: 'blocked', aborted_by: { by: 'request', requestedBy: 'cli', ...(reason === undefined ? {} : { reason }) } } as unknown as RunSummary['report'] });
    assert.match(out, /^outcome: aborted on request by cli \(does not need attention\)$/m, JSON.stringify(reason));
  }
  const said = printed({ report: { outcome: 'blocked', aborted_by: { by: 'request', requestedBy: 'cli', reason: 'not needed' } } as unknown as RunSummary['report'] });
  assert.match(said, /^outcome: aborted on request by cli: not needed \(does not need attention\)$/m);
});

test('a failed run whose block reason is its error: the words once, on the error line', () => {
  const msg = 'The run is in phase summarize, but the model script model.yaml has turns only for draft.';
  const out = printed({
    status: 'failed',
    error: { code: 'model_script_phase_mismatch', message: msg },
    report: { outcome: 'failed', block_reason: msg, failed_stage: null, error: null } as unknown as RunSummary['report'],
  });
  assert.equal(out.split(msg).length - 1, 1, out);
  assert.match(out, /^outcome: failed$/m);
  assert.match(out, /^error \[model_script_phase_mismatch\]: The run is in phase summarize/m);
});

test('a run aborted on request while a step ran: the step cut short is named, with how long it had run', () => {
  const error = { code: 'workflow_aborted', message: 'aborted on request: too slow', requestedBy: 'user', cutShort: { position: '__post__/0', kind: 'processor', ranMs: 5_800 } };
  const out = printed({ error, report: { outcome: 'blocked', aborted_by: { by: 'request', requestedBy: 'cli (user dana)', reason: 'too slow' } } as unknown as RunSummary['report'] });
  assert.match(out, /^outcome: aborted on request by cli \(user dana\): too slow \(does not need attention\)\ncut short: step __post__\/0 had run 5\.8 s \(nothing of it is recorded\)$/m);
  const without = printed({ error: { ...error, cutShort: undefined }, report: { outcome: 'blocked', aborted_by: { by: 'request', requestedBy: 'cli', reason: 'x' } } as unknown as RunSummary['report'] });
  assert.ok(!without.includes('cut short'), without);
});

test("a fork's reused line names what its recording answered, or that nothing was", () => {
  assert.equal(reusedLine({ reused: { model: 2, tool: 1, stage: 0, processor: 1 } }, 'run_a'), "reused from run_a's recording (not run again): 2 model turns, 1 tool call, 1 processor step; the rest ran live");
  assert.equal(reusedLine({ reused: { model: 0, tool: 0, stage: 0, processor: 0 } }, 'run_a'), "nothing was reused from run_a's recording: every step ran live");
  assert.equal(reusedLine(null, 'run_a'), "nothing was reused from run_a's recording: every step ran live");
});

test("a code step's printed lines under its event: each stream as the inspector shows it (printedText), its last newline off, bundle paths relative, indented", () => {
  const roots = ['/var/lib/stagecraft/bundles/ab12'];
  const data = { stdout: 'at /var/lib/stagecraft/bundles/ab12/caps.mjs:12:5\nhi\n\n', stderr: '', other: 'x' };
  assert.deepEqual(printedLines(data, roots), ['         stdout:', '           at caps.mjs:12:5', '           hi', '           ']);
  assert.equal(printedText(data.stdout, roots), 'at caps.mjs:12:5\nhi\n');
  assert.equal(printedText(data.stderr, roots), null);
  assert.equal(printedText(undefined, roots), null);
  assert.deepEqual(printedLines({ stdout: 7 }, roots), []);
});
