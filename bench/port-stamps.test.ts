// portGaps: a step's two main-thread gaps at the ports, read from a sequence of stamps
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DB_ANSWER, DB_SEND, portGaps, WORKER_REPLY, WORKER_REQUEST } from './port-stamps';

const seq = (...pairs: [number, number][]) => pairs.flat();

test('portGaps reads each step as request, reply, statement sent, answer: the gaps are medians in µs', () => {
  const steps: [number, number][] = [];
  for (let i = 0; i < 3; i++) {
    const t = i * 10;
    // a step: request at t, reply 0.2 ms later, its commit sent 0.1 ms after, the answer 0.5 ms after that
    steps.push([t, WORKER_REQUEST], [t + 0.2, WORKER_REPLY], [t + 0.3, DB_SEND], [t + 0.8, DB_ANSWER]);
  }
  steps.push([30.05, WORKER_REQUEST]); // the next step's request, 0.05 ms after the last answer
  const g = portGaps(seq(...steps));
  assert.equal(g.steps, 3);
  assert.equal(g.callUs, 200);
  assert.equal(g.replyToSendUs, 100);
  assert.equal(g.dbUs, 500);
  // the first answer → request gap is 10 - 0.8 ms (these steps are 10 ms apart), the last 0.05 ms: the median of three
  assert.deepEqual([g.answerToRequestUs], [9200]);
});

test('portGaps ignores what answers nothing: a second chunk of a reply, output between calls, a second statement after a reply', () => {
  const g = portGaps(
    seq(
      [0, WORKER_REPLY], // output before any request
      [1, WORKER_REQUEST],
      [1.2, WORKER_REPLY],
      [1.25, WORKER_REPLY], // a second chunk
      [1.4, DB_SEND],
      [1.5, DB_SEND], // another statement (a read): not the commit after the reply
      [2, DB_ANSWER],
      [2.1, WORKER_REQUEST],
    ),
  );
  assert.equal(g.steps, 1);
  assert.equal(g.callUs, 200);
  assert.equal(g.replyToSendUs, 200);
  assert.equal(g.answerToRequestUs, 100);
});

test('portGaps with no stamps says null, not zero', () => {
  assert.deepEqual(portGaps([]), { replyToSendUs: null, answerToRequestUs: null, callUs: null, dbUs: null, steps: 0 });
});
