// STAGECRAFT_HTTP_PRIVATE as read for every run's http/get: a value that is neither deny nor allow was read as unset,
// so a server set to `DENY` (or `true`) let runs reach this host and its private networks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UsageError } from '../../kernel/errors';
import { httpGetOptionsFromEnv } from './http-get';

test('deny, allow and unset are read as documented', () => {
  assert.deepEqual(httpGetOptionsFromEnv({}), { reach: 'local' });
  assert.deepEqual(httpGetOptionsFromEnv({ STAGECRAFT_HTTP_PRIVATE: '' }), { reach: 'local' });
  assert.deepEqual(httpGetOptionsFromEnv({ STAGECRAFT_HTTP_PRIVATE: 'deny' }), { reach: 'public' });
  assert.deepEqual(httpGetOptionsFromEnv({ STAGECRAFT_HTTP_PRIVATE: 'allow' }), { reach: 'all' });
});

test('any other value is refused, naming the variable and the values it takes, never read as unset', () => {
  for (const v of ['DENY', 'true', 'no', 'denied']) {
    assert.throws(
      () => httpGetOptionsFromEnv({ STAGECRAFT_HTTP_PRIVATE: v }),
      (e: unknown) => e instanceof UsageError && e.message.includes(`STAGECRAFT_HTTP_PRIVATE="${v}"`) && /deny .* or allow/.test(e.message),
      v,
    );
  }
});
