// What the browser tests set up through the API: a skill from a fixture folder (renamed, so each test
// has its own), saved as a version, and a run of it waited for until it ends.
import { expect, type APIRequestContext } from '@playwright/test';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { writeLoopBundle } from '../bench/loop-bundle';
import { benchFiles, skillText } from '../scripts/bench-editor-skill';

const FIXTURES = path.join(path.dirname(new URL(import.meta.url).pathname), 'fixtures');

/** the files of e2e/fixtures/<fixture>, its skill.md naming `name` */
export function fixtureFiles(fixture: string, name: string): Record<string, string> {
  const dir = path.join(FIXTURES, fixture);
  return Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(path.join(dir, f), 'utf8').replace(new RegExp(`^name: ${fixture}$`, 'm'), `name: ${name}`)]));
}

/** the files of examples/<example> (its folders' too), its skill.md naming `name` */
export function exampleFiles(example: string, name: string): Record<string, string> {
  const dir = path.join(FIXTURES, '..', '..', 'examples', example);
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const f of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, f.name);
      if (f.isDirectory()) walk(p);
      else out[path.relative(dir, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  out['skill.md'] = out['skill.md'].replace(new RegExp(`^name: ${example}$`, 'm'), `name: ${name}`);
  return out;
}

/** skill `name`: examples/<example> under that name, saved (made from the example's template, as the app does) */
export async function savedExample(request: APIRequestContext, example: string, name: string): Promise<Record<string, string>> {
  const files = exampleFiles(example, name);
  expect((await request.post('/api/skills', { data: { name, from: example } })).status()).toBe(201);
  const saved = await request.post(`/api/skills/${name}/versions`, { data: { files } });
  expect(saved.status(), await saved.text()).toBe(201);
  return files;
}

/** creates skill `name` from e2e/fixtures/<fixture> and saves it: the version's hash */
export async function savedSkill(request: APIRequestContext, fixture: string, name: string): Promise<{ hash: string; files: Record<string, string> }> {
  expect((await request.post('/api/skills', { data: { name } })).status()).toBe(201);
  const files = fixtureFiles(fixture, name);
  const saved = await request.post(`/api/skills/${name}/versions`, { data: { files } });
  expect(saved.status(), await saved.text()).toBe(201);
  return { hash: ((await saved.json()) as { version: { hash: string } }).version.hash, files };
}

/**
 * skill `name`: the benchmarks' loop skill (work, check, back to work) scripted for `loops` loops,
 * its skill.md changed by `editSkillMd` when given, saved
 */
export async function savedLoopSkill(request: APIRequestContext, name: string, loops: number, opts: { failAtVisit?: number; editSkillMd?: (text: string) => string } = {}): Promise<void> {
  const dir = writeLoopBundle(loops, opts);
  const files = Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(path.join(dir, f), 'utf8')]));
  rmSync(dir, { recursive: true, force: true });
  if (opts.editSkillMd) files['skill.md'] = opts.editSkillMd(files['skill.md']);
  expect((await request.post('/api/skills', { data: { name, from: 'blank' } })).status()).toBe(201);
  const saved = await request.post(`/api/skills/${name}/versions`, { data: { files } });
  expect(saved.status(), await saved.text()).toBe(201);
}

/** starts a run of `skill` on `input` and waits until its status is `status`: its id */
export async function ranTo(request: APIRequestContext, skill: string, input: Record<string, unknown>, status: string): Promise<string> {
  const started = await request.post('/api/runs', { data: { skill, input } });
  expect(started.status(), await started.text()).toBe(201);
  const { runId } = (await started.json()) as { runId: string };
  await expect.poll(async () => ((await (await request.get(`/api/runs/${runId}`)).json()) as { status: string }).status, { timeout: 60_000 }).toBe(status);
  return runId;
}

/**
 * skill `name`, the summarize example, run to completion; then a version whose postprocessor's python
 * step raises KeyError, saved: the run's id (a run that version would change)
 */
export async function ranThenBrokenSummarize(request: APIRequestContext, name: string): Promise<string> {
  expect((await request.post('/api/skills', { data: { name, from: 'summarize' } })).status()).toBe(201);
  const runId = await ranTo(request, name, { path: 'report.txt' }, 'completed');
  const files = exampleFiles('summarize', name);
  files['sanitize.py'] = files['sanitize.py'].replace('    count = 0\n', '    count = value["missing"]\n');
  expect((await request.post(`/api/skills/${name}/versions`, { data: { files } })).status()).toBe(201);
  return runId;
}

/** skill `name` from e2e/fixtures/tally, run on its note until its python step fails the run: the run's id */
export async function failedTallyRun(request: APIRequestContext, name: string): Promise<string> {
  await savedSkill(request, 'tally', name);
  return ranTo(request, name, { path: 'note.txt' }, 'aborted');
}

/**
 * skill `name`, the summarize example asking for 5 paragraphs: its model script's finish is refused
 * and it has no turn left, so the run fails outside any step (the run itself): the run's id
 */
export async function itselfFailedRun(request: APIRequestContext, name: string): Promise<string> {
  const got = await request.get('/api/skills/summarize');
  const files = ((await got.json()) as { version: { files: Record<string, string> } }).version.files;
  files['skill.md'] = files['skill.md'].replace('name: summarize', `name: ${name}`).replace('minItems: 1', 'minItems: 5');
  expect([201, 409]).toContain((await request.post('/api/skills', { data: { name, from: 'summarize' } })).status());
  expect((await request.post(`/api/skills/${name}/versions`, { data: { files } })).status()).toBe(201);
  return ranTo(request, name, { path: 'report.txt' }, 'failed');
}

/** skill `name`: the editor benchmark's large one (100 phases, 50 steps; scripts/bench-editor-skill.ts), saved */
export async function savedBenchSkill(request: APIRequestContext, name: string): Promise<void> {
  expect((await request.post('/api/skills', { data: { name } })).status()).toBe(201);
  const saved = await request.post(`/api/skills/${name}/versions`, { data: { files: benchFiles(skillText(undefined, name)) } });
  expect(saved.status(), await saved.text()).toBe(201);
}
