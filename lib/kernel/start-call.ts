/**
 * Starting a call of user code on the sandbox port — a fused run of pure code steps (processors.ts),
 * a module capability's stage (stages.ts): prepared where the sandbox can (CodeSandbox.prepare) and
 * started at once, so that what the call printed is known once it replies (PreparedCall.printed);
 * else called, and what it printed is not told.
 *
 * Owns: that choice, in one place. Does not: record what a call printed (its caller's step does), or
 * prepare a call to start later (processor-steps.ts prepareCodeCall: while the commit before it travels).
 */
import type { Json } from './json';
import type { CodeCall, PreparedCall } from './ports';
import type { RunContext } from './context';
import { callOptions } from './step';

/** `reply` settles as the call does; `prepared`, when the sandbox prepared it, holds what it printed once it replied */
export function startCodeCall(ctx: Pick<RunContext, 'abort' | 'deps'>, call: CodeCall): { reply: Promise<Json>; prepared: PreparedCall | undefined } {
  const prepared = ctx.deps.sandbox.prepare?.(call, callOptions(ctx));
  return { reply: prepared ? prepared.start() : ctx.deps.sandbox.call(call, callOptions(ctx)), prepared };
}
