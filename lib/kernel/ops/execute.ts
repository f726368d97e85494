/**
 * Executing ops: what each op in the registry does.
 *
 * File ops act on the run's folder (`fileRoot`: the run's workspace) and are
 * confined to it (no absolute paths, no `..` escape, no symlink escape);
 * file/read also reads the bundle's own files (`fileReadFallback`, read-only)
 * when the workspace has no file at the path, so a skill reads the data it
 * ships, while nothing a run writes can change the bundle it executes.
 * Workspace writes do not touch the store here: they are returned as
 * artifacts so they commit with the step that made them.
 *
 * Owns: op behaviour. Does not: check permissions (gate.ts — callers gate
 * first), memoize, or record (step.ts).
 */
import { mkdir, readFile, realpath, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { StepFailedError } from '../errors';
import type { Json, JsonObject } from '../json';
import { isJsonObject } from '../json';
import type { WorkspaceArtifact } from '../ports';
import type { RunContext } from '../context';
import { canonicalJson, sha256 } from '../memo';

export const FILE_READ_MAX_BYTES = 1_000_000;
/** workspace paths only the kernel writes */
export const RESERVED_WORKSPACE_PREFIX = '.stagecraft/';

export type OpResult = { data: Json; artifacts?: WorkspaceArtifact[] };

function argString(op: string, args: JsonObject, key: string): string {
  const v = args[key];
  if (typeof v !== 'string' || v === '') {
    throw new StepFailedError('op_bad_args', `op ${op} needs a non-empty string "${key}" argument`, { op });
  }
  return v;
}

async function resolveInside(root: string, rel: string, op: string): Promise<string> {
  if (path.isAbsolute(rel)) throw new StepFailedError('op_bad_path', `${op}: path "${rel}" must be relative to the run root`, { op, path: rel });
  const rootReal = await realpath(root);
  const full = path.resolve(rootReal, rel);
  if (full !== rootReal && !full.startsWith(rootReal + path.sep)) {
    throw new StepFailedError('op_bad_path', `${op}: path "${rel}" leaves the run root`, { op, path: rel });
  }
  // the deepest part of the path that exists must resolve inside the root (a symlinked folder can point out)
  for (let probe = full; ; probe = path.dirname(probe)) {
    let real: string | null = null;
    try {
      real = await realpath(probe);
    } catch {
      if (probe === rootReal || probe === path.dirname(probe)) break;
      continue;
    }
    if (real !== rootReal && !real.startsWith(rootReal + path.sep)) {
      throw new StepFailedError('op_bad_path', `${op}: path "${rel}" resolves outside the run root`, { op, path: rel });
    }
    break;
  }
  return full;
}

async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}

export function makeArtifact(ctx: RunContext, p: string, content: Json): WorkspaceArtifact {
  const text = typeof content === 'string' ? content : canonicalJson(content);
  return { runId: ctx.runId, path: p, content, sha256: sha256(text), size: Buffer.byteLength(text), createdAt: ctx.deps.clock.now() };
}

export async function executeOp(ctx: RunContext, op: string, args: JsonObject, position: string): Promise<OpResult> {
  const root = ctx.deps.fileRoot ?? ctx.plan.bundleDir;
  switch (op) {
    case 'file/read': {
      const rel = argString(op, args, 'path');
      let full = await resolveInside(root, rel, op);
      const fallback = ctx.deps.fileReadFallback;
      if (fallback && !(await exists(full))) full = await resolveInside(fallback, rel, op);
      try {
        const buf = await readFile(full);
        if (buf.length > FILE_READ_MAX_BYTES) {
          throw new StepFailedError('op_too_large', `file/read: ${rel} is ${buf.length} bytes, over ${FILE_READ_MAX_BYTES}`, { op, path: rel });
        }
        return { data: buf.toString('utf8') };
      } catch (e) {
        if (e instanceof StepFailedError) throw e;
        const code = (e as NodeJS.ErrnoException).code;
        throw new StepFailedError('op_failed', `file/read: cannot read ${rel}${code === 'ENOENT' ? ': no such file' : `: ${(e as Error).message}`}`, { op, path: rel });
      }
    }
    case 'file/write': {
      const rel = argString(op, args, 'path');
      const content = argString(op, args, 'content');
      const full = await resolveInside(root, rel, op);
      await mkdir(path.dirname(full), { recursive: true });
      await writeFile(full, content);
      return { data: { path: rel, bytes: Buffer.byteLength(content) } };
    }
    case 'workspace/read': {
      const p = argString(op, args, 'path');
      const a = await ctx.deps.store.readArtifact(ctx.runId, p);
      if (!a) throw new StepFailedError('op_failed', `workspace/read: no artifact at "${p}" in this run's workspace`, { op, path: p });
      return { data: a.content };
    }
    case 'workspace/write': {
      const p = argString(op, args, 'path');
      if (p.startsWith(RESERVED_WORKSPACE_PREFIX)) {
        throw new StepFailedError('op_bad_path', `workspace/write: ${RESERVED_WORKSPACE_PREFIX} is reserved for the kernel (the finish artifact lives there); choose another path`, { op, path: p });
      }
      const content = args.content ?? null;
      return { data: { path: p }, artifacts: [makeArtifact(ctx, p, content)] };
    }
    case 'http/get': {
      const url = argString(op, args, 'url');
      const f = ctx.deps.fetch ?? fetch;
      const res = await f(url);
      const text = await res.text();
      if (!res.ok) throw new StepFailedError('op_failed', `http/get ${url}: HTTP ${res.status}`, { op, status: res.status });
      return { data: text };
    }
    case 'run_skill': {
      const skill = argString(op, args, 'skill');
      const input = args.input ?? {};
      if (!isJsonObject(input)) throw new StepFailedError('op_bad_args', 'run_skill: "input" must be an object', { op });
      if (!ctx.deps.runChildSkill) {
        throw new StepFailedError('op_unavailable', 'run_skill is not available in this host (no child-skill runner was configured)', { op });
      }
      const out = await ctx.deps.runChildSkill({ skill, input, parentRunId: ctx.runId, fromBundleDir: ctx.plan.bundleDir, position });
      return { data: out };
    }
    case 'ask_user': {
      const q = argString(op, args, 'question');
      if (!ctx.deps.askUser) {
        throw new StepFailedError('op_unavailable', 'ask_user: no user is attached to this run; decide without asking', { op });
      }
      return { data: await ctx.deps.askUser(q, { runId: ctx.runId, phase: '' }) };
    }
    default:
      throw new StepFailedError('op_unknown', `op "${op}" has no implementation`, { op });
  }
}
