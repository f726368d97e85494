// What a row of the runs list says of a run's error (runErrorWords): the bundle copy's address in the
// data dir cut, whether the run records the copy as its bundle dir (a stored version's run) or the
// folder it was run from (`stagecraft run DIR`, executed from the version's copy all the same).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runErrorWords } from './run-index';

const HASH = 'e37051f9f8be4428595f2c47607782277661b8b19e571918a0e6a74ce5bc5165';
const COPY = `/tmp/sc-data/bundles/${HASH}`;
const RECORDED =
  `postprocessor step 0 (python, skill.md line 27) failed: python function total in ${COPY}/total.py raised KeyError: 'count' (at ${COPY}/total.py:3)\n` +
  `Traceback (most recent call last):\n  File "${COPY}/total.py", line 3, in total`;
const SHOWN = `postprocessor step 0 (python, skill.md line 27) failed: python function total in total.py raised KeyError: 'count' (at total.py:3)\nTraceback (most recent call last):\n  File "total.py", line 3, in total`;

describe('runErrorWords', () => {
  it('a stored version’s run: its copy is its bundle dir, cut', () => {
    assert.equal(runErrorWords(RECORDED, COPY, HASH), SHOWN);
    assert.equal(runErrorWords(RECORDED, COPY), SHOWN);
  });

  it('a run of a folder names the files of the copy it executed from as the report does, not by their address in the data dir', () => {
    assert.equal(runErrorWords(RECORDED, '/home/dana/skills/tally', HASH), SHOWN);
    assert.equal(runErrorWords(`ENOENT: no such file or directory, open 'file://${COPY}/data.json'`, '/home/dana/skills/tally', HASH), "ENOENT: no such file or directory, open 'data.json'");
  });

  it('anything else is left as recorded: another hash, a path that only contains the hash, no message', () => {
    const other = `failed in /tmp/sc-data/bundles/${'a'.repeat(64)}/total.py`;
    assert.equal(runErrorWords(other, '/home/dana/skills/tally', HASH), other);
    const inside = `failed in /tmp/x${HASH}/total.py`;
    assert.equal(runErrorWords(inside, null, HASH), inside);
    assert.equal(runErrorWords(null, COPY, HASH), null);
  });
});
