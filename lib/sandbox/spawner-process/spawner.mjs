// The spawner process: a small node process the server starts once, at boot, that spawns sandbox
// workers for it, so the big server process never forks (see ../spawner.ts for the design).
//
// Protocol, on the node IPC channel to the server (JSON messages):
//   server → spawner  { t: 'spawn', id, token, command, args, env, cwd, fd5?: base64 }
//   spawner → server  { t: 'spawned', id, pid } | { t: 'error', id, message } | { t: 'exit', id, code, signal }
// For each spawn the spawner opens four connections to the server's unix socket (argv[2]), writes
// the spawn's token and a role letter on each (o: stdout, e: stderr, i: requests on fd 3, r: replies
// on fd 4), and hands them to the child as its descriptors 1 to 4; its own copies are closed at once, so the
// worker's bytes go straight to the server. It reads nothing from them.
//
// Owns: nothing but the children it spawned: when the server goes (the IPC channel closes), it
// SIGKILLs every child's process group and exits. Self-contained (node: builtins only): it runs
// from wherever a bundler copied it.
import { spawn } from 'node:child_process';
import net from 'node:net';

const socketPath = process.argv[2];
const ROLES = ['o', 'e', 'i', 'r'];
/** @type {Map<number, number>} spawn id → pid, of the children alive */
const live = new Map();

const send = (message) => {
  if (process.connected) process.send(message, (err) => err && undefined);
};

/** A connection to the server's socket that has said which spawn and role it is. */
function connect(token, role) {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(socketPath);
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.pause();
      socket.write(token + role, (err) => (err ? reject(err) : resolve(socket)));
    });
  });
}

async function spawnOne(m) {
  const settled = await Promise.allSettled(ROLES.map((role) => connect(m.token, role)));
  const sockets = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) {
    for (const s of sockets) s.destroy();
    send({ t: 'error', id: m.id, message: `the spawner could not reach the server's worker socket (${failed.reason?.message ?? failed.reason})` });
    return;
  }
  const [out, err, requests, replies] = sockets;
  let child;
  try {
    child = spawn(m.command, m.args, {
      cwd: m.cwd,
      env: m.env,
      // own process group, so the server can kill whatever the user's code spawned too
      detached: true,
      stdio: ['ignore', out, err, requests, replies, ...(m.fd5 ? ['pipe'] : [])],
    });
  } catch (e) {
    send({ t: 'error', id: m.id, message: e?.message ?? String(e) });
    return;
  } finally {
    for (const s of sockets) s.destroy(); // the child holds its own copies
  }
  if (m.fd5) {
    const data = child.stdio[5];
    data.on('error', () => {}); // a launcher that died before reading it
    data.end(Buffer.from(m.fd5, 'base64'));
  }
  child.once('error', (e) => send({ t: 'error', id: m.id, message: e.message }));
  child.once('spawn', () => {
    live.set(m.id, child.pid);
    send({ t: 'spawned', id: m.id, pid: child.pid });
  });
  child.once('exit', (code, signal) => {
    live.delete(m.id);
    send({ t: 'exit', id: m.id, code, signal });
  });
}

process.on('message', (m) => {
  if (m?.t === 'spawn') void spawnOne(m);
});

// the server is gone (exited, killed): nothing it spawned may outlive it
process.on('disconnect', () => {
  for (const pid of live.values()) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  process.exit(0);
});
// a terminal's Ctrl-C or a SIGTERM to the server's process group: the server decides when this ends
// (its exit closes the channel), so its workers are never orphaned mid-shutdown
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});
send({ t: 'up', pid: process.pid });
