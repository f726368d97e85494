// The seccomp filter: its program run by a small BPF interpreter for both architectures (every rule,
// the ABI checks), and the real thing inside bubblewrap — each denied call fails, what interpreters
// need still works — with the same attempts succeeding without the sandbox, so the test can fail.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { createCodeSandbox } from './index';
import { isolationFor, type Isolation } from './isolation';
import { SECCOMP_RULES, seccompFilter } from './seccomp';

const ALLOW = 0x7fff0000;
const errno = (n: number) => 0x00050000 | n;
const EPERM = 1;
const ENOSYS = 38;
const CLONE_NEWUSER = 0x10000000;

/** Runs a classic-BPF seccomp program on (arch, nr, arg0) — the subset of instructions the filter uses. */
function run(program: Buffer, data: { arch: number; nr: number; arg0?: number }): number {
  const word = (off: number) => (off === 0 ? data.nr : off === 4 ? data.arch : off === 16 ? (data.arg0 ?? 0) >>> 0 : 0);
  let acc = 0;
  for (let pc = 0; pc < program.length / 8; ) {
    const code = program.readUInt16LE(pc * 8);
    const jt = program.readUInt8(pc * 8 + 2);
    const jf = program.readUInt8(pc * 8 + 3);
    const k = program.readUInt32LE(pc * 8 + 4);
    if (code === 0x20) acc = word(k);
    else if (code === 0x06) return k;
    else if (code === 0x15) pc += acc === k ? jt : jf;
    else if (code === 0x35) pc += acc >>> 0 >= k ? jt : jf;
    else if (code === 0x45) pc += (acc & k) !== 0 ? jt : jf;
    else throw new Error(`unexpected opcode ${code}`);
    pc++;
  }
  throw new Error('fell off the end of the program');
}

const ARCHES = [
  { name: 'x64', audit: 0xc000003e, nr: { ptrace: 101, bpf: 321, keyctl: 250, userfaultfd: 323, mount: 165, unshare: 272, clone: 56, clone3: 435, io_uring_setup: 425, read: 0, openat: 257 } },
  { name: 'arm64', audit: 0xc00000b7, nr: { ptrace: 117, bpf: 280, keyctl: 219, userfaultfd: 282, mount: 40, unshare: 97, clone: 220, clone3: 435, io_uring_setup: 425, read: 63, openat: 56 } },
];

for (const arch of ARCHES) {
  test(`the filter for ${arch.name}: denies what the README lists, allows the rest, refuses other ABIs`, () => {
    const p = seccompFilter(arch.name)!;
    const call = (nr: number, arg0 = 0) => run(p, { arch: arch.audit, nr, arg0 });
    for (const name of ['ptrace', 'bpf', 'keyctl', 'userfaultfd', 'mount'] as const) assert.equal(call(arch.nr[name]), errno(EPERM), name);
    assert.equal(call(arch.nr.clone3), errno(ENOSYS), 'clone3: ENOSYS, so the C library falls back to clone');
    assert.equal(call(arch.nr.io_uring_setup), errno(ENOSYS));
    assert.equal(call(arch.nr.unshare, CLONE_NEWUSER), errno(EPERM), 'unshare(CLONE_NEWUSER)');
    assert.equal(call(arch.nr.unshare, CLONE_NEWUSER | 0x400), errno(EPERM), 'with other flags too');
    assert.equal(call(arch.nr.unshare, 0x400), ALLOW, 'unshare(CLONE_FILES) is harmless');
    assert.equal(call(arch.nr.clone, CLONE_NEWUSER | 17), errno(EPERM), 'clone(CLONE_NEWUSER)');
    assert.equal(call(arch.nr.clone, 0x3d0f00), ALLOW, 'a thread');
    assert.equal(call(arch.nr.read), ALLOW);
    assert.equal(call(arch.nr.openat), ALLOW);
    assert.equal(run(p, { arch: 0x40000003, nr: arch.nr.read }), errno(EPERM), 'a call through another ABI (i386) is refused whatever it is');
  });
}

test('x32 calls (the 0x40000000 bit on x86-64) are refused whatever they are', () => {
  const p = seccompFilter('x64')!;
  assert.equal(run(p, { arch: 0xc000003e, nr: 0x40000000 + 101 }), errno(EPERM));
  assert.equal(run(p, { arch: 0xc000003e, nr: 0x40000000 }), errno(EPERM));
});

test('every rule has a number on every architecture with a filter, and other architectures get none', () => {
  for (const arch of ['x64', 'arm64']) {
    const p = seccompFilter(arch)!;
    assert.ok(p.length > 0 && p.length % 8 === 0);
    assert.ok(p.length / 8 < 256, 'short enough that every jump fits');
  }
  assert.equal(SECCOMP_RULES.length, new Set(SECCOMP_RULES.map((r) => r.name)).size);
  assert.equal(seccompFilter('s390x'), null);
});

const BWRAP = isolationFor('auto');
const NONE: Isolation = { kind: 'none', reason: 'the control: the same attempts without the sandbox' };

describe('inside bubblewrap', { skip: BWRAP.kind === 'bwrap' && BWRAP.seccomp ? false : 'no bubblewrap with seccomp here' }, () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sc-seccomp-'));
  const module = path.join(dir, 'probe.py');
  writeFileSync(
    module,
    `import ctypes, errno, os, subprocess, threading
libc = ctypes.CDLL(None, use_errno=True)
NR = {"x86_64": dict(keyctl=250, bpf=321, userfaultfd=323, clone=56), "aarch64": dict(keyctl=219, bpf=280, userfaultfd=282, clone=220)}[os.uname().machine]

def attempt(f):
    ctypes.set_errno(0)
    r = f()
    return "ok" if r >= 0 else errno.errorcode.get(ctypes.get_errno(), str(ctypes.get_errno()))

def clone_user():
    r = libc.syscall(NR["clone"], 0x10000000 | 17, 0, 0, 0, 0)  # CLONE_NEWUSER | SIGCHLD, fork-like
    if r == 0:
        os._exit(0)  # the child, had it been allowed
    if r > 0:
        os.waitpid(r, 0)
    return r

# every attempt is harmless when allowed (the control runs them on the host, as root): a pid that does
# not exist, an invalid command, a mount point that does not exist, a namespace of the worker's own
def probe(v):
    out = {
        "ptrace": attempt(lambda: libc.ptrace(16, 999999999, 0, 0)),  # PTRACE_ATTACH to no process: ESRCH when allowed
        "keyctl": attempt(lambda: libc.syscall(NR["keyctl"], 0, -3, 0)),  # KEYCTL_GET_KEYRING_ID, read-only
        "bpf": attempt(lambda: libc.syscall(NR["bpf"], 9999, 0, 0)),  # no such command: EINVAL when allowed
        "userfaultfd": attempt(lambda: libc.syscall(NR["userfaultfd"], -1)),  # bad flags: EINVAL when allowed
        "mount": attempt(lambda: libc.mount(b"none", b"/no/such/mount/point", b"tmpfs", 0, None)),
        "unshare_user": attempt(lambda: libc.unshare(0x10000000)),
        "clone_user": attempt(lambda: clone_user()),
    }
    out["fork"] = subprocess.run(["echo", "forked"], capture_output=True, text=True).stdout.strip()
    seen = []
    t = threading.Thread(target=lambda: seen.append("thread")); t.start(); t.join()
    out["thread"] = seen[0]
    out["seccomp"] = [l.split(":")[1].strip() for l in open("/proc/self/status") if l.startswith("Seccomp:")][0]
    return out
`,
  );
  after(() => rmSync(dir, { recursive: true, force: true }));
  const probe = async (isolation: Isolation) => {
    const sandbox = createCodeSandbox({ isolation, workDir: dir });
    try {
      return (await sandbox.call({ language: 'python', modulePath: module, exportName: 'probe', input: {}, timeoutMs: 20_000 })) as Record<string, string>;
    } finally {
      await sandbox.close();
    }
  };

  test('ptrace, keyctl, bpf, userfaultfd, mount and new user namespaces fail with EPERM; fork and threads still work', async () => {
    const out = await probe(BWRAP);
    assert.deepEqual(
      { ...out },
      { ptrace: 'EPERM', keyctl: 'EPERM', bpf: 'EPERM', userfaultfd: 'EPERM', mount: 'EPERM', unshare_user: 'EPERM', clone_user: 'EPERM', fork: 'forked', thread: 'thread', seccomp: '2' },
    );
  });

  test('without the sandbox the same attempts get through (what the filter is for)', async () => {
    const out = await probe(NONE);
    assert.equal(out.seccomp, '0');
    assert.equal(out.ptrace, 'ESRCH', 'ptrace reached the kernel: it looked for the process');
    assert.equal(out.bpf, 'EINVAL');
    assert.equal(out.userfaultfd, 'EINVAL');
    assert.equal(out.mount, 'ENOENT');
    // the kernel itself answers (a new user namespace, or EINVAL for a threaded caller), not the filter's EPERM
    assert.notEqual(out.clone_user, 'EPERM');
    assert.notEqual(out.unshare_user, 'EPERM');
  });
});
