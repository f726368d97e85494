// The embedded store's data-dir lock, without a database: who holds it, what a
// second process is told, and when a lock is stale and taken over.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { acquireDataDirLock, LOCK_FILE, processStartedAt, type LockOwner } from './data-dir-lock';
import { startChild } from './testing/child-process';
import { tempDir } from './testing/pg-test-db';

const dirs: { remove(): void }[] = [];
after(() => dirs.forEach((d) => d.remove()));
const freshDir = () => {
  const d = tempDir('stagecraft-lock-');
  dirs.push(d);
  return d.dir;
};

function writeLock(dir: string, over: Partial<LockOwner>) {
  const owner: LockOwner = {
    pid: 1,
    host: os.hostname(),
    startedAt: 0,
    lockedAt: 0,
    command: 'node old-process.js',
    token: 'old-token',
    ...over,
  };
  writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify(owner));
}

const deadPid = (): number => spawnSync(process.execPath, ['-e', '0']).pid!;

describe('data-dir lock', () => {
  it('is held by one owner; a second acquire in the same process is refused', () => {
    const dir = freshDir();
    const lock = acquireDataDirLock(dir);
    const onDisk = JSON.parse(readFileSync(path.join(dir, LOCK_FILE), 'utf8')) as LockOwner;
    assert.equal(onDisk.pid, process.pid);
    assert.equal(onDisk.host, os.hostname());
    assert.ok(onDisk.startedAt > 0 && onDisk.command.length > 0);
    assert.throws(() => acquireDataDirLock(dir), { code: 'store_locked', message: /this process/ });
    lock.release();
    assert.equal(existsSync(path.join(dir, LOCK_FILE)), false);
    acquireDataDirLock(dir).release();
  });

  it('a lock whose pid is dead is taken over', () => {
    const dir = freshDir();
    writeLock(dir, { pid: deadPid() });
    const lock = acquireDataDirLock(dir);
    assert.equal(lock.owner.pid, process.pid);
    assert.equal((JSON.parse(readFileSync(lock.lockPath, 'utf8')) as LockOwner).token, lock.owner.token);
    lock.release();
  });

  // a holder SIGKILLed whose parent does not reap it (a container's PID 1 that is not an init, a
  // supervisor gone) stays a zombie: kill(pid, 0) still answers, and the data dir was "in use by
  // another process" for as long as the zombie stayed, though it holds nothing and never runs again
  it('a lock whose pid is a zombie (dead, not yet reaped) is taken over', { skip: processStartedAt(process.pid) === null && 'no /proc' }, async () => {
    // the shell's background child exits at once; the shell has become `sleep 30`, which never reaps it
    const parent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const zombie = Number(await new Promise<string>((resolve) => parent.stdout.once('data', (b: Buffer) => resolve(b.toString()))));
      const state = () => readFileSync(`/proc/${zombie}/stat`, 'utf8').split(') ')[1]?.[0];
      for (let i = 0; i < 100 && state() !== 'Z'; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(state(), 'Z', 'the child is a zombie');
      const dir = freshDir();
      writeLock(dir, { pid: zombie, startedAt: processStartedAt(zombie) ?? 0 });
      const lock = acquireDataDirLock(dir);
      assert.equal(lock.owner.pid, process.pid);
      lock.release();
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('a live pid that started at another time (a reused pid) is stale; the real owner is not', { skip: processStartedAt(process.pid) === null && 'no /proc' }, () => {
    const dir = freshDir();
    writeLock(dir, { pid: process.ppid, startedAt: 1_000 });
    acquireDataDirLock(dir).release();
    writeLock(dir, { pid: process.ppid, startedAt: processStartedAt(process.ppid)!, command: 'node parent.js' });
    assert.throws(() => acquireDataDirLock(dir), (e: Error & { code?: string }) => {
      assert.equal(e.code, 'store_locked');
      assert.match(e.message, new RegExp(`pid ${process.ppid}\\b`));
      assert.match(e.message, /node parent\.js/);
      assert.match(e.message, /STAGECRAFT_DATA_DIR/);
      assert.match(e.message, /DATABASE_URL/);
      return true;
    });
  });

  it('a lock from another host is never taken over', () => {
    const dir = freshDir();
    writeLock(dir, { pid: deadPid(), host: 'elsewhere.example' });
    assert.throws(() => acquireDataDirLock(dir), { code: 'store_locked', message: /on host elsewhere\.example.*delete/s });
  });

  it('release leaves a lock that is not its own', () => {
    const dir = freshDir();
    const lock = acquireDataDirLock(dir);
    writeLock(dir, { pid: process.pid, startedAt: lock.owner.startedAt, token: 'someone-else' });
    lock.release();
    assert.equal(existsSync(path.join(dir, LOCK_FILE)), true);
  });

  it('a second process is refused with the holder pid; once the holder is killed, the lock is taken over', async () => {
    const dir = freshDir();
    const holder = startChild(['lock', dir]);
    try {
      const { ready } = await holder.next();
      assert.equal(typeof ready, 'number');
      assert.throws(() => acquireDataDirLock(dir), { code: 'store_locked', message: new RegExp(`pid ${ready}\\b`) });
      await holder.kill();
      const lock = acquireDataDirLock(dir);
      assert.equal(lock.owner.pid, process.pid);
      lock.release();
    } finally {
      await holder.kill();
    }
  });

  // `cp -a` of a data dir a live process holds (the app's, to try something on a copy): its lock came
  // along, naming a live owner, so every command on the copy was store_locked — or, with the app's
  // app.json copied too, went through that app, to the original store
  it('a lock copied with its dir holds nothing there: the copy is taken, the original stays held', () => {
    const dir = freshDir();
    const lock = acquireDataDirLock(dir);
    const copy = `${dir}-copy`;
    dirs.push({ remove: () => rmSync(copy, { recursive: true, force: true }) });
    assert.equal(spawnSync('cp', ['-a', dir, copy]).status, 0);
    const copied = acquireDataDirLock(copy);
    assert.equal((JSON.parse(readFileSync(path.join(copy, LOCK_FILE), 'utf8')) as LockOwner).token, copied.owner.token);
    assert.throws(() => acquireDataDirLock(dir), { code: 'store_locked' }, 'the original is still held');
    // the same dir by another path (a link), or moved while held, is the same dir: held
    const link = `${dir}-link`;
    symlinkSync(dir, link);
    dirs.push({ remove: () => rmSync(link, { force: true }) });
    assert.throws(() => acquireDataDirLock(link), { code: 'store_locked' });
    const moved = `${dir}-moved`;
    renameSync(dir, moved);
    dirs.push({ remove: () => rmSync(moved, { recursive: true, force: true }) });
    assert.throws(() => acquireDataDirLock(moved), { code: 'store_locked' });
    copied.release();
    lock.release();
  });
});
