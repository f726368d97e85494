// `stagecraft fork`'s line saying which version the fork ran: a folder's (new, or known), beside the
// version the parent ran; a stored version adds nothing (as through the app, which reads no folder).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forkVersionLine } from './print';

const V = '6ff698f923f5aaaa';
const P = '1b2c3d4e5f60bbbb';

test("the fork's version is said as the folder's, new, beside the parent's", () => {
  assert.equal(forkVersionLine(V, { folder: '/home/u/blog', isNew: true, parentVersion: P }, '/home/u'), "with version 6ff698f923f5 from blog, new: the folder's files as they are now (the parent ran 1b2c3d4e5f60)");
  assert.equal(forkVersionLine(V, { folder: '/home/u/blog', isNew: false, parentVersion: V }, '/home/u/blog'), 'with version 6ff698f923f5 from . (the version the parent ran)');
  assert.equal(forkVersionLine(V, { folder: '/srv/blog', isNew: false, parentVersion: null }, '/home/u'), 'with version 6ff698f923f5 from /srv/blog');
  assert.equal(forkVersionLine(V, { folder: null, isNew: false, parentVersion: P }, '/home/u'), null, 'a stored version: said as through the app, with nothing added');
});
