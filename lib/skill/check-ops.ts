/**
 * Ops named in skill.md — phase `tools` and `run_op` steps — against the op
 * registry and the permission gate: each is listed in `permissions.ops`, its
 * effects are granted, a `run_op`'s literal `args` fit the op, and a literal
 * `run_skill` target is a bundle with a skill.md.
 *
 * Owns: those rules. Unknown ops and `ask_user` in a processor are structural
 * (the schema's op enums) and reported by structure.ts; this module skips
 * them. Does not: execute or gate ops at run time (lib/kernel/ops).
 */
import { isJsonObject } from '../kernel/json';
import { getOp } from '../kernel/ops/registry';
import { dirnamePath, isAbsolutePath, isInMemoryBundle, joinPath } from './bundle-paths';
import type { CheckContext } from './check-context';
import { has, obj, strings } from './frontmatter';
import type { KeyPath } from './source';
import { formatPath } from './source';
import { suggestionSuffix } from './suggest';

const TEMPLATE = /\$\{[^}]*\}/;

/** One use of an op (a tool of a phase, or a run_op step): permitted, and its effects granted. */
export function checkOpUse(ctx: CheckContext, op: string, at: KeyPath, use: string): void {
  const def = getOp(op);
  if (!def) return;
  const perms = obj(ctx.fm.permissions);
  const permitted = strings(perms.ops);
  if (!permitted.includes(op)) {
    ctx.findings.add(
      'op_not_permitted',
      `${use} uses op \`${op}\`, which is not in \`permissions.ops\`` +
        (def.offByDefault ? ` (${op} is off by default)` : '') +
        `: the call would be refused. Add \`${op}\` to permissions.ops` +
        (def.effects.length ? ` and ${def.effects.map((e) => `\`${e}\``).join(', ')} to permissions.effects.` : '.'),
      at,
    );
    return;
  }
  const granted = strings(perms.effects);
  const missing = def.effects.filter((e) => !granted.includes(e));
  if (missing.length) {
    ctx.findings.add(
      'op_effect_not_granted',
      `Op \`${op}\` needs effect${missing.length > 1 ? 's' : ''} ${missing.map((e) => `\`${e}\``).join(', ')}, ` +
        `which \`permissions.effects\` does not grant: the call would be refused at run time. Add ${missing.join(', ')} to permissions.effects.`,
      at,
    );
  }
}

export function checkTools(ctx: CheckContext): void {
  for (const [phase, raw] of Object.entries(obj(ctx.fm.phases))) {
    const tools = obj(raw).tools;
    if (!Array.isArray(tools)) continue;
    tools.forEach((t, i) => {
      if (typeof t === 'string') checkOpUse(ctx, t, ['phases', phase, 'tools', i], `Phase \`${phase}\``);
    });
  }
}

/** A `run_op` step: the op's use, its literal arguments, and a literal run_skill target. */
export function checkRunOp(ctx: CheckContext, step: Record<string, unknown>, at: KeyPath): void {
  const op = typeof step.op === 'string' ? step.op : undefined;
  const def = op ? getOp(op) : undefined;
  if (!op || !def || def.modelOnly) return;
  checkOpUse(ctx, op, [...at, 'op'], `Step \`${formatPath(at)}\``);
  if (has(step, 'args') && !isJsonObject(step.args)) return; // a structural error
  const args = obj(step.args);
  const schema = obj(def.args);
  const props = obj(schema.properties);
  const known = Object.keys(props);
  for (const k of Object.keys(args)) {
    if (schema.additionalProperties === false && !has(props, k)) {
      ctx.findings.add(
        'op_args',
        `Op \`${op}\` has no argument \`${k}\`${suggestionSuffix(k, known)} Its arguments are: ${known.join(', ')}.`,
        [...at, 'args', k],
        'key',
      );
      continue;
    }
    const want = obj(props[k]).type;
    const v = args[k];
    const isWholeTemplate = typeof v === 'string' && /^\$\{[^}]+\}$/.test(v);
    if (want === 'string' && typeof v !== 'string') {
      ctx.findings.add('op_args', `Argument \`${k}\` of op \`${op}\` must be a string (or a \${path} template).`, [...at, 'args', k]);
    } else if (want === 'object' && !isJsonObject(v) && !isWholeTemplate) {
      ctx.findings.add('op_args', `Argument \`${k}\` of op \`${op}\` must be a mapping, or a whole \${path} template that yields one.`, [...at, 'args', k]);
    }
  }
  const missing = strings(schema.required).filter((k) => !has(args, k));
  if (missing.length) {
    ctx.findings.add(
      'op_args',
      `Op \`${op}\` needs argument${missing.length > 1 ? 's' : ''} ${missing.map((k) => `\`${k}\``).join(', ')}: ` +
        `add ${missing.map((k) => `\`${k}\``).join(', ')} under \`args:\` (values may use \${path} templates).`,
      has(step, 'args') ? [...at, 'args'] : [...at, 'op'],
      has(step, 'args') ? 'key' : 'value',
    );
  }
  if (op === 'run_skill' && typeof args.skill === 'string' && !TEMPLATE.test(args.skill)) checkRunSkillTarget(ctx, args.skill, [...at, 'args', 'skill']);
}

/**
 * `run_skill` names a bundle folder relative to the folder holding this bundle
 * (for a bundle in memory: `..`, so the target is asked as `../<name>/skill.md`).
 */
function checkRunSkillTarget(ctx: CheckContext, skill: string, at: KeyPath): void {
  const inMemory = isInMemoryBundle(ctx.bundleDir);
  const parent = inMemory ? '..' : dirnamePath(ctx.bundleDir);
  const target = isAbsolutePath(skill) ? skill : joinPath(parent, skill);
  const file = target.endsWith('skill.md') ? target : joinPath(target, 'skill.md');
  if (ctx.fileExists(file)) return;
  ctx.findings.add(
    'run_skill_not_found',
    inMemory
      ? `run_skill target \`${skill}\` is not a skill of this workspace: run_skill names another skill of the same workspace ` +
          'by its name; create that skill or fix the name.'
      : `run_skill target \`${skill}\` has no skill.md (looked for ${file}): run_skill names a bundle folder beside this one ` +
          'in the same workspace; create it or fix the name.',
    at,
  );
}
