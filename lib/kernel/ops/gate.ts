/**
 * The permission gate: the one check every op dispatch passes, whether the
 * model called it or a processor step did.
 *
 * An op must exist, be listed in `permissions.ops`, have all its effects in
 * `permissions.effects`; a model call must also be in the phase's `tools`;
 * a processor may never call a model-only op (`ask_user`).
 *
 * Owns: the decision and its message. Does not: execute anything.
 */
import { GrantRefusedError } from '../errors';
import type { Plan } from '../plan';
import { getOp, type OpDef } from './registry';

export type Caller = { kind: 'model'; phase: string; tools: readonly string[] } | { kind: 'processor'; phase: string };

export function gateOp(plan: Plan, op: string, caller: Caller): OpDef {
  const def = getOp(op);
  if (!def) throw new GrantRefusedError(`op "${op}" does not exist`, { op });
  if (caller.kind === 'processor' && def.modelOnly) {
    throw new GrantRefusedError(`op "${op}" may only be called by the model, never from a processor step`, { op });
  }
  if (caller.kind === 'model' && !caller.tools.includes(op)) {
    throw new GrantRefusedError(
      `op "${op}" is not among phase ${caller.phase}'s tools (${caller.tools.join(', ') || 'none'}); add it to phases.${caller.phase}.tools`,
      { op, phase: caller.phase },
    );
  }
  if (!plan.permittedOps.has(op)) {
    throw new GrantRefusedError(`op "${op}" is not permitted; add it to permissions.ops`, { op });
  }
  const missing = def.effects.filter((e) => !plan.effectGrants.has(e));
  if (missing.length) {
    throw new GrantRefusedError(
      `op "${op}" needs effect${missing.length > 1 ? 's' : ''} ${missing.join(', ')}, not granted; add to permissions.effects`,
      { op, missing },
    );
  }
  return def;
}
