// Every example bundle runs offline with its model script, through the same
// path the CLI and the app use (load, compile, real sandbox, kernel), on the
// in-memory store. The database paths are covered by the store's own tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startSkillRun } from '../lib/server/runs/start-run';
import { summarizeRun } from '../lib/server/runs/run-summary';
import { memoryHost } from '../lib/server/testing';

const here = path.dirname(new URL(import.meta.url).pathname);
const host = () => memoryHost({ cwd: here });
const input = (name: string) => JSON.parse(readFileSync(path.join(here, name, 'input.json'), 'utf8'));

async function run(name: string) {
  const h = host();
  const outcome = await startSkillRun(h, { bundle: name, input: input(name) });
  return { outcome, summary: await summarizeRun(h.store, outcome), store: h.store };
}

test('blog_writer: draft → review, then rendering.py computes html_rendered, word_count, reading_minutes', async () => {
  const { outcome, summary } = await run('blog_writer');
  assert.equal(outcome.status, 'completed', JSON.stringify(outcome.error));
  const out = outcome.output as Record<string, unknown>;
  assert.equal(out.title, 'Durable runs, plainly');
  assert.match(String(out.html_rendered), /^<article><h1>Durable runs, plainly<\/h1>\n<p>A durable run remembers/);
  assert.equal(out.word_count, 26);
  assert.equal(out.reading_minutes, 1);
  assert.deepEqual(
    summary.steps.map((s) => [s.phase, s.index, s.type, s.status]),
    [
      ['__post__', 0, 'python', 'ok'],
      ['__post__', 1, 'python', 'ok'],
      ['__post__', 2, 'validate', 'ok'],
    ],
  );
});

test('code_review: the model judges; the postprocessor resolves affected files (a missing one skipped) and owners', async () => {
  const { outcome, summary } = await run('code_review');
  assert.equal(outcome.status, 'completed', JSON.stringify(outcome.error));
  const out = outcome.output as Record<string, unknown>;
  assert.equal(out.severity, 'high');
  assert.deepEqual(out.affected_files, [
    { path: 'src/cart.js', exists: true, lines: 8 },
    { path: 'src/cart.test.js', exists: false },
  ]);
  assert.deepEqual(out.tagged_owners, ['@dana', '@payments-team']);
  assert.equal(summary.steps.length, 3);
});

test('summarize: paragraphs from the model, then the PII-sanitising step', async () => {
  const { outcome } = await run('summarize');
  assert.equal(outcome.status, 'completed', JSON.stringify(outcome.error));
  const out = outcome.output as { paragraphs: string[]; redactions: number };
  assert.equal(out.redactions, 2);
  assert.ok(!out.paragraphs.join(' ').includes('example.com'));
  assert.match(out.paragraphs[1], /Dana Ruiz \(\[email\], \[phone\]\)/);
});

test('research_brief: every rung has a stage, and each does its job', async () => {
  const { outcome, summary, store } = await run('research_brief');
  assert.equal(outcome.status, 'completed', JSON.stringify(outcome.error));
  const rungs = new Set(summary.traces.map((t) => t.rung));
  assert.deepEqual([...rungs].sort(), ['finalize', 'post-model', 'post-tool', 'pre-tool', 'prompt-assembly']);
  assert.ok(summary.traces.every((t) => t.status === 'ok'), JSON.stringify(summary.traces.filter((t) => t.status !== 'ok')));
  // pre-tool: the secrets read was denied, so the report says the run was blocked from something
  const events = await store.readEvents(outcome.runId);
  const reads = events.filter((e) => e.data.op === 'file/read');
  assert.equal(reads.length, 2, 'the denied read never ran');
  assert.equal(outcome.report!.outcome, 'blocked');
  assert.match(String(outcome.report!.block_reason), /secrets\/keys\.txt is not allowed by path_guard/);
  // post-tool: the long background note was cut, its full text kept in the workspace
  const kept = await store.listArtifacts(outcome.runId);
  assert.ok(kept.some((a) => a.path.startsWith('tool-results/') && String(a.content).startsWith('Background.')));
  // post-model: "40 schools" appears in no note
  const traces = await store.readTraces(outcome.runId);
  const flagged = traces.filter((t) => t.rung === 'post-model' && JSON.stringify(t.contribution).includes('unverified_number'));
  assert.equal(flagged.length, 1);
  assert.match(JSON.stringify(flagged[0]), /40 at summary/);
  // finalize: the contact's e-mail is redacted
  const out = outcome.output as { contact: string };
  assert.equal(out.contact, 'Priya Nair, [redacted]');
});
