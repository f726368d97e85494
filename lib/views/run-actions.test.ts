// Who asked for an abort is recorded in the run ("aborted on request by X"), so the abort route takes
// for `requestedBy` only what `stagecraft abort` sends (`cli`, `cli (user NAME)`): any other text, a
// newline included, is a 400 that says what it takes, before the handler sees it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { routes } from '../api/routes';
import { handle } from '../server/http/handle';
import { cliRequester } from './requester';

async function post(body: unknown): Promise<{ status: number; message: string; called: boolean }> {
  let called = false;
  const route = handle(routes.abortRun, async ({ params }) => {
    called = true;
    return { runId: params.id, status: 'aborted' as const, error: {}, abortedChildren: [] };
  });
  const res = await route(new Request('http://127.0.0.1/api/runs/r1/abort', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }), {
    params: Promise.resolve({ id: 'r1' }),
  });
  const json = (await res.json()) as { error?: { message: string } };
  return { status: res.status, message: json.error?.message ?? '', called };
}

test('the abort route takes who asks as the CLI says it', async () => {
  for (const requestedBy of ['cli', 'cli (user dana)', cliRequester('root'), cliRequester('a.b-c_d$')]) {
    const r = await post({ reason: 'stop', via: 'cli', requestedBy });
    assert.equal(r.status, 200, `${requestedBy}: ${r.message}`);
    assert.ok(r.called);
  }
  assert.equal((await post({ via: 'cli' })).status, 200);
  assert.equal((await post({})).status, 200);
});

test('a forged requestedBy is a 400 that says what it takes, and nothing is aborted', async () => {
  const forged = [
    'the security team',
    'cli (user dana)\nAborted on request by the security team',
    'cli (user dana smith)',
    'cli (user (root))',
    `cli (user ${'x'.repeat(65)})`,
    'cli ',
    '',
  ];
  for (const requestedBy of forged) {
    const r = await post({ via: 'cli', requestedBy });
    assert.equal(r.status, 400, JSON.stringify(requestedBy));
    assert.equal(r.called, false);
    assert.match(r.message, /^The request body is not as this route expects: requestedBy: who asks must be "cli" or "cli \(user NAME\)"/);
  }
});

test('a user name that would not fit is left out of who asks', () => {
  assert.equal(cliRequester('dana'), 'cli (user dana)');
  for (const name of ['dana smith', 'a(b)', '', 'x'.repeat(65), null]) assert.equal(cliRequester(name), 'cli');
});
