// A run's advisory-lock key (claimKey) is the same in every process whichever version of it runs:
// two processes that computed it differently could both claim one run. Pinned to the keys the Hash
// object's digest (readBigInt64BE of its first 8 bytes) gave, and checked against that over many ids.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { claimKey } from './claims';

/** the key as it was first defined: a signed big-endian 64-bit integer from the digest's first 8 bytes */
const reference = (runId: string) => createHash('sha256').update(`stagecraft.run-claim:${runId}`).digest().readBigInt64BE(0).toString();

describe('claimKey', () => {
  it('gives the keys recorded runs were claimed with', () => {
    assert.equal(claimKey('run_1'), '-1434644303333329455');
    assert.equal(claimKey('01JABCDEF0123456789XYZ'), '3961446012993552938');
    assert.equal(claimKey('run-é-☃-😀'), '-682909856697635111');
    assert.equal(claimKey(''), '7238743755289911967');
  });

  it('is the digest read as a signed 64-bit integer, negative and positive alike', () => {
    let negative = 0;
    for (let i = 0; i < 2_000; i++) {
      const id = i % 3 ? `run_${randomBytes(9).toString('base64url')}` : randomBytes(12).toString('latin1');
      const key = claimKey(id);
      assert.equal(key, reference(id), id);
      if (key.startsWith('-')) negative++;
    }
    assert.ok(negative > 0 && negative < 2_000, 'both signs met');
  });
});
