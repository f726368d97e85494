// A run of a folder (`stagecraft run DIR`) that fails in its python step: the runs list and the home
// page's last run say what failed naming the bundle's file as the run report does (`total.py`), not
// by the address of the copy it executed from in the data dir (`/tmp/…/bundles/<hash>/total.py`).
// The run records the folder as its bundle dir, and the list cut only that; what is recorded is not
// changed, only how the list shows it.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { routes } from '../lib/api/routes';
import { besideApp } from './testing/beside-app';

const { start, app, cli, call } = besideApp('sc-folder-words-');
const WORDS = 'python function total in total.py raised KeyError';

describe('a failed run of a folder, in the runs list and on the home page', () => {
  before(async () => {
    const made = await cli(['run', 'e2e/fixtures/tally', '--input', 'e2e/fixtures/tally/input.json', '--json']);
    assert.match(made.out + made.err, /KeyError/);
    await start();
  });

  it('names the failed file relative to the skill, in the API, the runs page and the home page', async () => {
    const [run] = (await call(routes.listRuns, { query: {} })).runs;
    assert.ok(run.errorMessage?.includes(WORDS), run.errorMessage ?? 'no error');
    assert.doesNotMatch(run.errorMessage ?? '', /\/bundles\//);
    for (const page of ['/runs?skill=tally', '/']) {
      const html = await (await fetch(`${app().url}${page}`)).text();
      assert.ok(html.includes(WORDS), `${page} says ${WORDS}`);
      assert.doesNotMatch(html, /\/bundles\/[0-9a-f]{64}\/total\.py/, page);
    }
  });
});
