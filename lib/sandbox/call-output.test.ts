// What is kept of a call's output: its head and tail by bytes, whole when it fits, with what was left out
// counted; and the throttle's pauses past the full-speed allowance.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OUTPUT_DRAIN_BYTES_PER_S, OUTPUT_FULL_SPEED_BYTES, OUTPUT_HEAD_BYTES, OUTPUT_SLICE_MS, OUTPUT_TAIL_BYTES, OutputThrottle, StreamKeep } from './call-output';

test('output that fits in head and tail is kept whole, in any chunking; past it, head + how much was left out + tail', () => {
  const whole = Buffer.from('é'.repeat((OUTPUT_HEAD_BYTES + OUTPUT_TAIL_BYTES) / 2));
  for (const size of [1, 7, 4096, 65536]) {
    const keep = new StreamKeep();
    for (let at = 0; at < whole.length; at += size) keep.add(whole.subarray(at, at + size));
    assert.equal(keep.text(), whole.toString('utf8'), `chunks of ${size}`);
  }
  const keep = new StreamKeep();
  keep.add(Buffer.from('head\n'));
  for (let i = 0; i < 1000; i++) keep.add(Buffer.alloc(1000, 'x'));
  keep.add(Buffer.from('\ntail'));
  const text = keep.text();
  assert.match(text, /^head\nx+\n\[… \d+ bytes of output left out …\]\nx+\ntail$/);
  const left = Number(/… (\d+) bytes/.exec(text)![1]);
  assert.equal(left, 5 + 1_000_000 + 5 - OUTPUT_HEAD_BYTES - OUTPUT_TAIL_BYTES);
  keep.reset();
  assert.equal(keep.text(), '');
});

test('the throttle: nothing paused up to the full-speed allowance; past it, a pause once a slice’s share has come', () => {
  const throttle = new OutputThrottle();
  assert.equal(throttle.onBytes(OUTPUT_FULL_SPEED_BYTES, 0), 0);
  const share = (OUTPUT_DRAIN_BYTES_PER_S * OUTPUT_SLICE_MS) / 1000;
  assert.equal(throttle.onBytes(share / 2, 1000), 0);
  assert.equal(throttle.onBytes(share / 2, 1040), 60, 'paused for the rest of the slice');
  assert.equal(throttle.onBytes(share / 2, 1100), 0, 'a new slice reads again');
  throttle.reset();
  assert.equal(throttle.onBytes(share * 2, 2000), 0, 'a new call starts at full speed');
});

test('a character cut by the head’s end or the tail’s start is left out whole (and counted), not shown as U+FFFD', () => {
  for (const size of [1, 3, 4096, 65536]) {
    // 'x' then 3-byte and 4-byte characters: the head's 4096th byte and the tail's first fall inside characters
    const whole = Buffer.from('x' + '€'.repeat(3000) + '😀'.repeat(3000) + 'x');
    const keep = new StreamKeep();
    for (let at = 0; at < whole.length; at += size) keep.add(whole.subarray(at, at + size));
    const text = keep.text();
    assert.ok(!text.includes('\uFFFD'), `chunks of ${size}: a replacement character in ${JSON.stringify(text.slice(4090, 4110))}`);
    const [head, tail] = text.split(/\n\[… \d+ bytes of output left out …\]\n/);
    assert.equal(head, 'x' + '€'.repeat(1365), 'the head: 4096 bytes less the cut character');
    assert.equal(tail, '😀'.repeat(1023) + 'x', 'the tail: 4096 bytes less the cut character');
    const left = Number(/… (\d+) bytes/.exec(text)![1]);
    assert.equal(left, whole.length - Buffer.byteLength(head) - Buffer.byteLength(tail));
  }
  // head and tail meeting inside a character (nothing left out) decode as one text
  const meeting = Buffer.from('x' + '€'.repeat(2000));
  const keep = new StreamKeep();
  keep.add(meeting);
  assert.equal(keep.text(), meeting.toString('utf8'));
});

test('a NUL in the output is kept as the text \\x00 (a store refuses NUL in JSON); output without one is as it came', () => {
  const keep = new StreamKeep();
  keep.add(Buffer.from('a\0b\0\n'));
  assert.equal(keep.text(), 'a\\x00b\\x00\n');
  const big = new StreamKeep();
  big.add(Buffer.from(`\0${'x'.repeat(OUTPUT_HEAD_BYTES + OUTPUT_TAIL_BYTES)}\0`));
  assert.ok(big.text().startsWith('\\x00x') && big.text().endsWith('x\\x00'), 'head and tail of a cut output too');
  const plain = new StreamKeep();
  plain.add(Buffer.from('plain\n'));
  assert.equal(plain.text(), 'plain\n');
});
