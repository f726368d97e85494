/**
 * Capabilities (stages on the phase ladder): unique names, builtins on rungs
 * they support, module handlers inside the bundle, and effects — what the
 * stage asks for against what `permissions.effects` grants (a warning: the
 * stage would be refused at run time), and what its rung's contribution needs
 * against what it asks for (a warning: the contribution would not be applied).
 *
 * Owns: those rules and `stageEffects` (a builtin asks for the effects it
 * needs unless the author lists effects; the compiler uses the same function).
 * Does not: check `with` options (the schema does, per builtin) or dispatch
 * stages (lib/kernel).
 */
import type { BuiltinDef } from '../kernel/builtins/catalog';
import { BUILTINS, KNOWN_EFFECTS, RUNG_EFFECT } from '../kernel/builtins/catalog';
import type { Rung } from '../kernel/plan';
import { checkModulePath } from './bundle-paths';
import type { CheckContext } from './check-context';
import { arr, has, obj, str, strings } from './frontmatter';

/** The catalog entry of `builtin:<name>` (own keys only: `builtin:constructor` is no builtin). */
export function builtinOf(uses: string | undefined): BuiltinDef | undefined {
  if (!uses?.startsWith('builtin:')) return undefined;
  const name = uses.slice('builtin:'.length);
  return has(BUILTINS, name) ? BUILTINS[name] : undefined;
}

/** The effects a capability asks for: as listed, or a builtin's own when not listed. */
export function stageEffects(cap: Record<string, unknown>): string[] {
  if (has(cap, 'effects')) return strings(cap.effects);
  const builtin = builtinOf(str(cap.uses));
  return builtin ? [...builtin.effects] : [];
}

/** `./caps.ts#budget` → `{ module: './caps.ts', exportName: 'budget' }` */
export function splitUses(uses: string): { module: string; exportName: string } {
  const i = uses.lastIndexOf('#');
  return { module: uses.slice(0, i), exportName: uses.slice(i + 1) };
}

export function checkCapabilities(ctx: CheckContext): void {
  const granted = strings(obj(ctx.fm.permissions).effects);
  const seen = new Map<string, number>();
  arr(ctx.fm.capabilities).forEach((raw, i) => {
    const cap = obj(raw);
    const at = ['capabilities', i];
    const name = str(cap.name);
    if (name !== undefined) {
      if (seen.has(name)) {
        ctx.findings.add(
          'duplicate_stage',
          `Capability name \`${name}\` is already used by capabilities[${seen.get(name)}]: stage names are unique in a skill ` +
            '(traces and replays name stages by it). Rename one of them.',
          [...at, 'name'],
        );
      } else seen.set(name, i);
    }
    const uses = str(cap.uses);
    const stage = str(cap.stage) as Rung | undefined;
    const builtinName = uses?.startsWith('builtin:') ? uses.slice('builtin:'.length) : undefined;
    const builtin = builtinOf(uses);
    if (builtin && stage && has(RUNG_EFFECT, stage) && !builtin.rungs.includes(stage)) {
      ctx.findings.add(
        'builtin_rung',
        `builtin:${builtin.name} does not run on ${stage}: it supports ${builtin.rungs.join(', ')}. Set \`stage: ${builtin.rungs[0]}\`.`,
        [...at, 'stage'],
      );
    }
    if (uses && !builtinName && uses.includes('#')) {
      checkModulePath(ctx.findings, {
        modulePath: splitUses(uses).module,
        kind: 'node',
        what: 'The capability module',
        path: [...at, 'uses'],
        bundleDir: ctx.bundleDir,
        fileExists: ctx.fileExists,
      });
    }
    if (builtinName !== undefined && !builtin) return; // an unknown builtin: its needs are unknown too
    const effects = stageEffects(cap);
    const listed = has(cap, 'effects');
    effects.forEach((effect) => {
      // an effect Stagecraft does not know is `unknown_effect` already: granting it would be a second error
      if (granted.includes(effect) || !KNOWN_EFFECTS.includes(effect)) return;
      ctx.findings.add(
        'effect_not_granted',
        `Capability \`${name ?? i}\` needs effect \`${effect}\`, which \`permissions.effects\` does not grant: ` +
          `the stage would be refused at run time. Add ${effect} to permissions.effects.`,
        listed ? [...at, 'effects', arr(cap.effects).indexOf(effect)] : [...at, 'uses'],
      );
    });
    const needed = builtin ? builtin.effects : stage && has(RUNG_EFFECT, stage) ? [RUNG_EFFECT[stage]].filter((e): e is string => e !== null) : [];
    const undeclared = needed.filter((e) => !effects.includes(e));
    if (undeclared.length) {
      ctx.findings.add(
        'contribution_effect_undeclared',
        `Capability \`${name ?? i}\` on ${stage} does not declare ${undeclared.map((e) => `\`${e}\``).join(', ')}, ` +
          `which its contribution needs: the stage would run but what it returns would not be applied. Add ${undeclared.join(', ')} to its effects.`,
        listed ? [...at, 'effects'] : [...at, 'stage'],
        listed ? 'key' : 'value',
      );
    }
  });
}
