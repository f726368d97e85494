// "The database is not there", wherever it surfaces — and nothing else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StoreUnavailableError } from '../kernel/errors';
import { isConnectionError, reachable, unreachableError } from './connection-errors';

const prismaWrapped = (code: string, message: string) =>
  Object.assign(new Error(`Invalid invocation: ${message}`), { code: 'P2039', meta: { driverAdapterError: { name: 'DriverAdapterError', cause: { originalCode: code, originalMessage: message, kind: 'postgres', code, message } } } });

test('a server shutting down, crashed or starting, a refused or cut socket: unreachable', () => {
  assert.ok(isConnectionError(prismaWrapped('57P01', 'terminating connection due to administrator command')));
  assert.ok(isConnectionError(prismaWrapped('57P03', 'the database system is starting up')));
  assert.ok(isConnectionError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5439'), { code: 'ECONNREFUSED' })));
  assert.ok(isConnectionError(new Error('Connection terminated unexpectedly')));
  assert.ok(isConnectionError({ severity: 'FATAL', code: '08006', message: 'connection failure' }));
  assert.ok(isConnectionError(new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })])));
  assert.ok(isConnectionError(new Error('outer', { cause: Object.assign(new Error('inner'), { code: 'ECONNRESET' }) })));
});

test('what the caller or the data caused is not: a unique violation, a missing run, a bad value', () => {
  assert.ok(!isConnectionError(prismaWrapped('23505', 'duplicate key value violates unique constraint "events_pkey"')));
  assert.ok(!isConnectionError(prismaWrapped('SC002', 'no run x in the store')));
  assert.ok(!isConnectionError(prismaWrapped('22P05', 'unsupported Unicode escape sequence')));
  assert.ok(!isConnectionError(new Error('boom')));
  assert.ok(!isConnectionError(null));
});

test('unreachable errors are one kind: store_unreachable, 503, saying where and what to do', async () => {
  const e = unreachableError('postgresql://u@h:5432/db', prismaWrapped('57P01', 'terminating connection due to administrator command'));
  assert.ok(e instanceof StoreUnavailableError);
  assert.equal(e.code, 'store_unreachable');
  assert.equal(e.httpStatus, 503);
  assert.match(e.message, /The database at postgresql:\/\/u@h:5432\/db is unreachable \(57P01: terminating connection due to administrator command\)\..*Postgres server is running/);
  await assert.rejects(reachable('here', async () => Promise.reject(new Error('Connection terminated unexpectedly'))), { code: 'store_unreachable' });
  await assert.rejects(reachable('here', async () => Promise.reject(new Error('boom'))), { message: 'boom' });
  assert.equal(await reachable('here', async () => 7), 7);
});
