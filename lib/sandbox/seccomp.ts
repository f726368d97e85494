/**
 * The seccomp filter every bubblewrap worker runs under (`bwrap --seccomp FD`):
 * a classic-BPF program, built here, that refuses the system calls a code step
 * has no use for and that widen the kernel surface it can attack.
 *
 * Why a program written here rather than libseccomp: bubblewrap takes the
 * compiled BPF bytes, not rules, so libseccomp would only be a compiler run at
 * install time — a C toolchain and `libseccomp-dev` (or python3-seccomp for the
 * one python Debian ships, not the one a machine may use) on every machine,
 * for a deny list of a few dozen numbers. The program is the standard shape
 * libseccomp itself emits for such a list (check the ABI, load the number,
 * compare, return), small enough to read whole, and its behaviour is proven
 * from inside a real sandbox by seccomp.test.ts (each denied call fails, the
 * interpreters still start, fork and run threads).
 *
 * What it denies (the README lists the same): ptrace and reading or writing
 * another process's memory (`ptrace`, `process_vm_readv`, `process_vm_writev`);
 * `bpf`; the kernel keyring (`keyctl`, `add_key`, `request_key`);
 * `userfaultfd`; mounting in every form (`mount`, `umount2`, `pivot_root`,
 * `open_tree`, `move_mount`, `fsopen`, `fsconfig`, `fsmount`, `fspick`,
 * `mount_setattr`); new user namespaces (`clone` or `unshare` with
 * `CLONE_NEWUSER`) and joining namespaces (`setns`); `perf_event_open`;
 * loading kernels and modules (`kexec_load`, `kexec_file_load`,
 * `init_module`, `finit_module`, `delete_module`); file handles
 * (`open_by_handle_at`, `name_to_handle_at`); and io_uring. Denied calls fail
 * with EPERM; `clone3` and io_uring fail with ENOSYS, the answer that makes
 * the C library fall back to `clone` (whose flags the filter can read) and
 * libuv to its thread pool. A call made through another ABI (32-bit `int 0x80`
 * on x86-64, x32) fails with EPERM whatever it is: its numbers differ, so a
 * filter that checked only native numbers could be walked around.
 *
 * Owns: the deny list and the BPF bytes for x86-64 and aarch64. Does not: pass
 * them to bubblewrap (sandbox.ts writes them to the worker's fd) or decide
 * whether a sandbox is used (isolation.ts). On another architecture there is
 * no filter (`seccompFilter()` is null) and the README says so.
 */

/** A denied call: its name, and the errno it fails with (EPERM unless ENOSYS lets the caller fall back). */
type Rule = { name: string; errno?: number; ifFlag?: number };

const EPERM = 1;
const ENOSYS = 38;
const CLONE_NEWUSER = 0x10000000;

/** What code steps may not call; `ifFlag`: denied only when the first argument has that bit (clone, unshare). */
export const SECCOMP_RULES: readonly Rule[] = [
  { name: 'ptrace' },
  { name: 'process_vm_readv' },
  { name: 'process_vm_writev' },
  { name: 'bpf' },
  { name: 'keyctl' },
  { name: 'add_key' },
  { name: 'request_key' },
  { name: 'userfaultfd' },
  { name: 'mount' },
  { name: 'umount2' },
  { name: 'pivot_root' },
  { name: 'open_tree' },
  { name: 'move_mount' },
  { name: 'fsopen' },
  { name: 'fsconfig' },
  { name: 'fsmount' },
  { name: 'fspick' },
  { name: 'mount_setattr' },
  { name: 'setns' },
  { name: 'perf_event_open' },
  { name: 'kexec_load' },
  { name: 'kexec_file_load' },
  { name: 'init_module' },
  { name: 'finit_module' },
  { name: 'delete_module' },
  { name: 'open_by_handle_at' },
  { name: 'name_to_handle_at' },
  { name: 'io_uring_setup', errno: ENOSYS },
  { name: 'io_uring_enter', errno: ENOSYS },
  { name: 'io_uring_register', errno: ENOSYS },
  { name: 'clone3', errno: ENOSYS },
  { name: 'clone', ifFlag: CLONE_NEWUSER },
  { name: 'unshare', ifFlag: CLONE_NEWUSER },
];

type Arch = { audit: number; numbers: Record<string, number>; x32Bit?: number };

// from <asm/unistd_64.h> (x86-64) and <asm-generic/unistd.h> (aarch64)
const ARCHES: Record<string, Arch> = {
  x64: {
    audit: 0xc000003e,
    x32Bit: 0x40000000,
    numbers: {
      ptrace: 101, process_vm_readv: 310, process_vm_writev: 311, bpf: 321, keyctl: 250, add_key: 248, request_key: 249,
      userfaultfd: 323, mount: 165, umount2: 166, pivot_root: 155, open_tree: 428, move_mount: 429, fsopen: 430,
      fsconfig: 431, fsmount: 432, fspick: 433, mount_setattr: 442, setns: 308, perf_event_open: 298, kexec_load: 246,
      kexec_file_load: 320, init_module: 175, finit_module: 313, delete_module: 176, open_by_handle_at: 304,
      name_to_handle_at: 303, io_uring_setup: 425, io_uring_enter: 426, io_uring_register: 427, clone3: 435, clone: 56,
      unshare: 272,
    },
  },
  arm64: {
    audit: 0xc00000b7,
    numbers: {
      ptrace: 117, process_vm_readv: 270, process_vm_writev: 271, bpf: 280, keyctl: 219, add_key: 217, request_key: 218,
      userfaultfd: 282, mount: 40, umount2: 39, pivot_root: 41, open_tree: 428, move_mount: 429, fsopen: 430,
      fsconfig: 431, fsmount: 432, fspick: 433, mount_setattr: 442, setns: 268, perf_event_open: 241, kexec_load: 104,
      kexec_file_load: 294, init_module: 105, finit_module: 273, delete_module: 106, open_by_handle_at: 265,
      name_to_handle_at: 264, io_uring_setup: 425, io_uring_enter: 426, io_uring_register: 427, clone3: 435, clone: 220,
      unshare: 97,
    },
  },
};

// classic BPF opcodes (linux/filter.h, linux/seccomp.h)
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
/** offsets in struct seccomp_data: nr, arch, and the low 32 bits of args[0] (little-endian) */
const OFF_NR = 0;
const OFF_ARCH = 4;
const OFF_ARG0_LO = 16;

type Insn = { code: number; jt: number | string; jf: number | string; k: number; label?: string };

/** The filter for this machine's architecture, as the bytes bubblewrap reads; null where there is none. */
export function seccompFilter(arch: string = process.arch): Buffer | null {
  const a = ARCHES[arch];
  return a ? assemble(program(a)) : null;
}

function program(a: Arch): Insn[] {
  const deny = (errno: number) => `deny_${errno}`;
  const p: Insn[] = [
    { code: LD_W_ABS, jt: 0, jf: 0, k: OFF_ARCH },
    { code: JEQ_K, jt: 0, jf: deny(EPERM), k: a.audit },
    { code: LD_W_ABS, jt: 0, jf: 0, k: OFF_NR },
  ];
  if (a.x32Bit) p.push({ code: JGE_K, jt: deny(EPERM), jf: 0, k: a.x32Bit });
  for (const r of SECCOMP_RULES) {
    const nr = a.numbers[r.name];
    p.push({ code: JEQ_K, jt: r.ifFlag ? `flag_${r.ifFlag}` : deny(r.errno ?? EPERM), jf: 0, k: nr });
  }
  p.push({ code: RET_K, jt: 0, jf: 0, k: RET_ALLOW });
  for (const flag of new Set(SECCOMP_RULES.flatMap((r) => (r.ifFlag ? [r.ifFlag] : [])))) {
    p.push({ code: LD_W_ABS, jt: 0, jf: 0, k: OFF_ARG0_LO, label: `flag_${flag}` });
    p.push({ code: JSET_K, jt: deny(EPERM), jf: 0, k: flag });
    p.push({ code: RET_K, jt: 0, jf: 0, k: RET_ALLOW });
  }
  for (const errno of new Set(SECCOMP_RULES.map((r) => r.errno ?? EPERM))) {
    p.push({ code: RET_K, jt: 0, jf: 0, k: RET_ERRNO | errno, label: deny(errno) });
  }
  return p;
}

/** struct sock_filter[] in the machine's byte order (both architectures here are little-endian); jumps are relative, forward only. */
function assemble(p: Insn[]): Buffer {
  const at = new Map(p.flatMap((insn, i) => (insn.label ? [[insn.label, i] as const] : [])));
  const offset = (i: number, target: number | string): number => {
    if (typeof target === 'number') return target;
    const to = at.get(target);
    if (to === undefined || to <= i || to - i - 1 > 255) throw new Error(`seccomp: bad jump to ${target} from ${i}`);
    return to - i - 1;
  };
  const out = Buffer.alloc(p.length * 8);
  p.forEach((insn, i) => {
    out.writeUInt16LE(insn.code, i * 8);
    out.writeUInt8(offset(i, insn.jt), i * 8 + 2);
    out.writeUInt8(offset(i, insn.jf), i * 8 + 3);
    out.writeUInt32LE(insn.k >>> 0, i * 8 + 4);
  });
  return out;
}
