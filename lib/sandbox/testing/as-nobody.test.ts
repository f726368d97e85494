// cgroupPlacesAsNonRoot asks the sandbox itself, run as the user the CLI tests run as, where it would
// make its workers' cgroups: the tests of what happens where it may make none (left-daemons.test)
// skip where that user gets some, instead of passing for the cgroup's own cleanup.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cgroupStatus } from '../cgroups';
import { cgroupPlacesAsNonRoot, isRoot, skipAsNobody } from './as-nobody';

test('where the CLI run as a user that is not root would make cgroups: as that user itself says', { skip: skipAsNobody }, () => {
  const places = cgroupPlacesAsNonRoot();
  assert.ok(Array.isArray(places), 'the probe answered');
  const own = [cgroupStatus().pids?.dir, cgroupStatus().memory?.dir, cgroupStatus().listing?.dir].filter((d): d is string => typeof d === 'string');
  // not root: the probe runs as this very user, and finds what this process found (as root, `nobody` is asked)
  if (!isRoot) assert.deepEqual(places, [...new Set(own)]);
});
