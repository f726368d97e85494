/**
 * Executing ops: what each op in the registry does.
 *
 * File ops go through the `files` port (ports.ts: the run's workspace, and the
 * bundle's own files read-only for file/read): the workspace is written by the
 * run's code too, so how a path is opened safely there — never through a link
 * code made, never blocking on a FIFO, sizes checked before reading — is the
 * host's policy (lib/sandbox/workspace-files.ts), not the kernel's. Workspace
 * writes do not touch the store here: they are returned as artifacts so they
 * commit with the step that made them.
 *
 * Owns: op behaviour. Does not: check permissions (gate.ts — callers gate
 * first), memoize, or record (step.ts).
 */
import { StepFailedError } from '../errors';
import type { Json, JsonObject } from '../json';
import { isJsonObject } from '../json';
import type { WorkspaceArtifact, WorkspaceFiles } from '../ports';
import type { RunContext } from '../context';
import { canonicalJson, sha256 } from '../memo';

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

function filesOf(ctx: RunContext, op: string): WorkspaceFiles {
  const files = ctx.deps.files;
  if (!files) throw new StepFailedError('op_unavailable', `${op} is not available in this host (no workspace was configured for the run)`, { op });
  return files;
}

export function makeArtifact(ctx: RunContext, p: string, content: Json): WorkspaceArtifact {
  const text = typeof content === 'string' ? content : canonicalJson(content);
  return { runId: ctx.runId, path: p, content, sha256: sha256(text), size: Buffer.byteLength(text), createdAt: ctx.deps.clock.now() };
}

export async function executeOp(ctx: RunContext, op: string, args: JsonObject, position: string): Promise<OpResult> {
  switch (op) {
    case 'file/read': {
      const rel = argString(op, args, 'path');
      return { data: await filesOf(ctx, op).read(rel) };
    }
    case 'file/write': {
      const rel = argString(op, args, 'path');
      const content = argString(op, args, 'content');
      const { bytes } = await filesOf(ctx, op).write(rel, content);
      return { data: { path: rel, bytes } };
    }
    case 'workspace/read': {
      const p = argString(op, args, 'path');
      // a run recorded with its first commit (journal.ts deferCreation) is recorded before the store is asked
      if (ctx.journal.isCreationPending) await ctx.journal.flush(true);
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
