import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RUN_INPUT_POINT } from '@/lib/kernel/fork-edits';
import { POST_PHASE } from '@/lib/kernel/plan';
import { FORK_POINT_FINISH, FORK_POINT_INPUT, type RunView } from '@/lib/views';
import { forkPointHint, forkPositions, rerunDoneNote, rerunPointOf, RERUN_WORDS } from './run-positions';
import { pointFacts } from './fork-words';

type Run = Parameters<typeof rerunPointOf>[0] & Parameters<typeof forkPositions>[0];
const base: Run = { status: 'completed', steps: [], traces: [] };
const step = (position: string, status = 'ok'): RunView['steps'][number] => ({ phase: position.split('/')[0], index: Number(position.split('/')[1]), type: 'python', status, position, seq: 1 });

test("the views' fork point names are the kernel's", () => {
  assert.equal(FORK_POINT_FINISH, POST_PHASE);
  assert.equal(FORK_POINT_INPUT, RUN_INPUT_POINT);
});

test("the rerun point is the server's: a report that names another failed step is not read, and no rerunFrom means no rerun", () => {
  // the report names a failed step the server does not rerun from: the page follows the server
  const report = { failed_step: { phase: '__post__', position: '__post__/0', index: 0, type: 'python', on_error: 'fail', error: 'KeyError' } } as unknown as RunView['report'];
  const error = { code: 'model_http_error', message: 'HTTP 503', position: 'draft/r1/model' };
  const failed = { ...base, status: 'failed', report, error } as Run & Pick<RunView, 'report' | 'error'>;
  assert.equal(rerunPointOf({ ...failed, rerunFrom: 'draft/r2/model' })?.at, 'draft/r2/model');
  assert.equal(rerunPointOf({ ...failed, rerunFrom: null }), null, 'the server names no point: the page offers none of its own');
  assert.equal(rerunPointOf({ ...failed, rerunFrom: undefined }), null);
  assert.equal(rerunPointOf({ ...base, status: 'completed', rerunFrom: 'draft' }), null, 'a completed run is not rerun');
});

test("a fork of a failed processor step starts from what it was given; of any other point, from the point", () => {
  const steps = [step('__post__/0', 'failed')];
  assert.equal(rerunPointOf({ ...base, status: 'aborted', steps, rerunFrom: '__post__/0' })?.forkAt, '__post__/0/input');
  assert.equal(rerunPointOf({ ...base, status: 'failed', steps, rerunFrom: 'draft/r1/model' })?.forkAt, 'draft/r1/model');
  assert.equal(rerunPointOf({ ...base, status: 'failed', rerunFrom: 'draft#2' })?.forkAt, 'draft#2');
});

test('a fork of a failed step nested in an iterate (in an iterate) starts from what that step was given, not from its result', () => {
  // the view lists a chain's own steps only: the outer iterate, not the steps of its elements' chains
  const steps = [step('__post__/0', 'ok'), step('draft/pre/0', 'ok')];
  // an inner iterate skipped its failed element step; the run then failed at the caller contract
  assert.equal(rerunPointOf({ ...base, status: 'aborted', steps, rerunFrom: '__post__/0/1/0/1/0' })?.forkAt, '__post__/0/1/0/1/0/input');
  assert.equal(rerunPointOf({ ...base, status: 'failed', steps, rerunFrom: 'draft/pre/0/2/0' })?.forkAt, 'draft/pre/0/2/0/input');
  // a position that only starts with a step's text is not inside it
  assert.equal(rerunPointOf({ ...base, status: 'failed', steps: [step('__post__/1')], rerunFrom: '__post__/10' })?.forkAt, '__post__/10');
});

test("the take-on box's words: a step's for a step's position, a phase's for a phase (the server's point either way)", () => {
  const at = (rerunFrom: string) => rerunPointOf({ ...base, status: 'failed', rerunFrom })?.words;
  assert.equal(at('__post__/0'), RERUN_WORDS.step);
  assert.equal(at('draft/r1/model'), RERUN_WORDS.step);
  for (const phase of ['draft', 'draft#2', '__post__']) assert.equal(at(phase), RERUN_WORDS.phase, phase);
  // the two wordings differ in their words only
  assert.deepEqual(Object.keys(RERUN_WORDS.step), Object.keys(RERUN_WORDS.phase));
  // what happened, in the user's words: the phase did not finish, and no step of it is to blame
  assert.equal(RERUN_WORDS.phase.where.join('draft'), 'Phase draft did not finish, though none of its steps failed.');
  assert.doesNotMatch(Object.values(RERUN_WORDS.phase).flat().join(' '), /point at/);
  // with nothing naming what stopped it, the box says where to read why; a failed step names itself
  assert.equal(RERUN_WORDS.phase.why, 'The run report above says why it stopped.');
  assert.equal(RERUN_WORDS.step.why, '');
  assert.equal(RERUN_WORDS.step.where.join('__post__/0'), 'It failed at __post__/0.');
});

test('fork points a run page offers: input, its phases, the finish artifact, each processor step and its input', () => {
  const run: Run = { ...base, steps: [step('__post__/0'), step('__post__/1')], traces: [{ phase: 'draft' } as RunView['traces'][number]] };
  assert.deepEqual(forkPositions(run), ['input', 'draft', '__post__', '__post__/0', '__post__/0/input', '__post__/1', '__post__/1/input']);
  assert.deepEqual(forkPositions({ ...base, status: 'aborted' }), ['input'], 'no finish artifact to fork from when the run stopped before it');
});

test('what the value at a point is, and whether it must be an object', () => {
  assert.deepEqual(pointFacts('__post__', 'input'), { what: 'the finish artifact', effect: 'The postprocessor runs on this artifact; nothing before it runs again.', isObject: true });
  assert.equal(pointFacts('draft/r2/model', 'model').what, 'the model turn at draft/r2/model');
  assert.equal(pointFacts('draft/r1/post-tool/0', 'tool').isObject, false, 'a tool outcome is any JSON');
  assert.equal(pointFacts('draft/r1/pre-tool/0', 'tool').isObject, true, "a tool call's arguments are an object");
  assert.match(pointFacts('__post__/1/input', 'processor').what, /what step __post__\/1 is given/);
  assert.equal(pointFacts('__post__/1', 'processor').isObject, false, 'a validate step may yield null; the server says');
});

test('a run the model contract stopped, after a nested step failure an iterate skipped, is taken on from its phase, and the box says the contract stopped it', () => {
  // the server's point is the phase (the skipped step did not stop the run); the steps the view lists are ok
  const run = { ...base, status: 'failed', steps: [step('draft/pre/0', 'skipped')], rerunFrom: 'draft', error: { code: 'output_invalid', message: 'phase draft: the finish artifact does not satisfy the output schema after one retry' } };
  const point = rerunPointOf(run);
  assert.equal(point?.at, 'draft');
  assert.equal(point?.words, RERUN_WORDS.phase);
  assert.match(point?.stoppedBy ?? '', /^The model contract stopped it/);
  // a failed step is its own cause: the words name it already
  assert.equal(rerunPointOf({ ...run, rerunFrom: 'draft/pre/0/1/0' })?.stoppedBy, null);
  // a run aborted by a chain's or the caller's contract
  const report = { aborted_by: { by: 'contract', phase: '__post__' } } as unknown as RunView['report'];
  assert.match(rerunPointOf({ ...base, status: 'aborted', rerunFrom: '__post__', report })?.stoppedBy ?? '', /^The skill's contract stopped it/);
  assert.equal(rerunPointOf({ ...base, status: 'failed', rerunFrom: 'draft', error: { code: 'model_script_exhausted', message: 'x' } })?.stoppedBy, null);
  // a phase whose max_rounds ran out: said so
  assert.match(rerunPointOf({ ...base, status: 'failed', rerunFrom: 'draft', error: { code: 'max_rounds_exceeded', message: 'x' } })?.stoppedBy ?? '', /^It ran out of model rounds/);
});

test('a phase stopped on a later visit is named by its place, as the runs list counts it, with the visit beside it; the rerun keeps the visit', () => {
  const failed = { ...base, status: 'failed' } as Run;
  const later = rerunPointOf({ ...failed, rerunFrom: 'draft#2' });
  assert.deepEqual([later?.at, later?.place, later?.visit], ['draft#2', 'draft', '2nd visit']);
  assert.deepEqual(['draft#3', 'draft#11', 'draft#21', 'draft#112'].map((at) => rerunPointOf({ ...failed, rerunFrom: at })?.visit), ['3rd visit', '11th visit', '21st visit', '112th visit']);
  const first = rerunPointOf({ ...failed, rerunFrom: 'draft' });
  assert.deepEqual([first?.place, first?.visit], ['draft', null]);
  const inStep = rerunPointOf({ ...failed, rerunFrom: 'draft#2/r3/model' });
  assert.deepEqual([inStep?.place, inStep?.visit], ['draft#2/r3/model', null], "a step's position is the point itself");
});

test("the take-on box says once a fork from its point has completed; not for one still going, failed, or from elsewhere", () => {
  const d = (forkPoint: string | null, status: string, kind = 'fork') => ({ runId: `run_${status}`, kind, forkPoint, status, createdAt: 1 });
  assert.equal(rerunDoneNote({ derivedRuns: [d('__post__/1', 'completed')] }, '__post__/1'), 'A fork from here has completed since: it is under Replays and forks below.');
  assert.equal(rerunDoneNote({ derivedRuns: [d('__post__/1', 'running'), d('__post__/1', 'aborted'), d('__post__/0', 'completed'), d(null, 'completed', 'replay')] }, '__post__/1'), null);
  assert.equal(rerunDoneNote({}, '__post__/1'), null);
});

// the hint said `draft/r2/model` of every run, one with no `draft` phase too
test("the fork point's hint takes its step examples from the run's own positions", () => {
  const summarize = ['input', 'summarize', '__post__', 'summarize/r1/model', 'summarize/r1/model/input', '__post__/0', '__post__/0/input', '__post__/1'];
  assert.equal(forkPointHint(summarize), "input, a phase name, __post__ (the finish artifact), a step (summarize/r1/model, __post__/0), or a step's /input");
  assert.doesNotMatch(forkPointHint(summarize), /draft/);
  assert.equal(forkPointHint(['input', '__post__', '__post__/2/input', '__post__/2']), "input, a phase name, __post__ (the finish artifact), a step (__post__/2), or a step's /input");
  assert.equal(forkPointHint(['input', 'answer']), "input, a phase name, __post__ (the finish artifact), a step, or a step's /input");
});
