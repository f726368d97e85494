/**
 * lib/sandbox: the `CodeSandbox` port (lib/kernel/ports.ts) for python and node
 * code steps and module capabilities — warm child-process workers with a
 * timeout, a memory limit and an environment free of the server's secrets.
 *
 * Owns: the public surface of this directory. Does not: know about skills,
 * steps or runs; the kernel decides what to call and what a failure means.
 */
export { createCodeSandbox, DEFAULT_MAX_WORKERS_PER_LANGUAGE, DEFAULT_MEMORY_LIMIT_MB } from './sandbox';
export type { CodeSandboxOptions } from './sandbox';
