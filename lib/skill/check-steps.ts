/**
 * Processor steps (phase preprocessors and the postprocessor, nested `iterate`
 * steps included): what each step type needs beyond its shape.
 *
 * Owns: `walkSteps` (the one traversal, with paths like
 * `postprocessor.steps[2].steps[0]`, used by the checks and the compiler),
 * `on_error: empty` needing `into`, code-step module paths, validate-step
 * schemas, and handing `run_op` steps to check-ops. Does not: check step
 * shapes (structure.ts: required keys, types, model-calling step types,
 * `ask_user`) or run anything.
 */
import { bundleFile, checkModulePath, normalizePath } from './bundle-paths';
import type { CheckContext } from './check-context';
import { checkRunOp } from './check-ops';
import { checkSchemaSite } from './check-schemas';
import { arr, has, obj } from './frontmatter';
import type { KeyPath } from './source';
import { formatPath } from './source';

export type ProcessorSite = { steps: unknown; path: KeyPath; kind: 'preprocessor' | 'postprocessor'; phase?: string };

/** Every processor of the skill: phase preprocessors in `phases:` order, then the postprocessor. */
export function processorSites(fm: Record<string, unknown>): ProcessorSite[] {
  const out: ProcessorSite[] = [];
  for (const [phase, raw] of Object.entries(obj(fm.phases))) {
    const pre = obj(obj(raw).preprocessor);
    if (has(pre, 'steps')) out.push({ steps: pre.steps, path: ['phases', phase, 'preprocessor', 'steps'], kind: 'preprocessor', phase });
  }
  const post = obj(fm.postprocessor);
  if (has(post, 'steps')) out.push({ steps: post.steps, path: ['postprocessor', 'steps'], kind: 'postprocessor' });
  return out;
}

/** Visits each step (depth first, a step before its nested steps) with its key path. */
export function walkSteps(steps: unknown, at: KeyPath, visit: (step: Record<string, unknown>, path: KeyPath) => void): void {
  arr(steps).forEach((raw, i) => {
    const path = [...at, i];
    const step = obj(raw);
    visit(step, path);
    if (step.type === 'iterate' && has(step, 'steps')) walkSteps(step.steps, [...path, 'steps'], visit);
  });
}

function checkStep(ctx: CheckContext, step: Record<string, unknown>, at: KeyPath): void {
  const type = step.type;
  const name = `\`${formatPath(at)}\``;
  if (step.on_error === 'empty' && !has(step, 'into') && type !== 'lint_plan') {
    ctx.findings.add(
      'empty_needs_into',
      type === 'validate'
        ? `Step ${name} says \`on_error: empty\`, but a validate step stores nothing to empty: use \`on_error: skip\` to go on after a failed check.`
        : `Step ${name} says \`on_error: empty\`, which writes the empty value of its \`into\` target, but it has no \`into\`: ` +
            'add `into: <key>` (where the result goes) or use `on_error: skip`.',
      [...at, 'on_error'],
    );
  }
  if (type === 'validate' && has(step, 'schema')) {
    checkSchemaSite(ctx, step.schema, [...at, 'schema'], `The schema of step ${name}`);
  } else if (type === 'run_op') {
    checkRunOp(ctx, step, at);
  } else if ((type === 'python' || type === 'node') && typeof step.module === 'string') {
    const usable = checkModulePath(ctx.findings, {
      modulePath: step.module,
      kind: type,
      what: `The ${type} module`,
      path: [...at, 'module'],
      bundleDir: ctx.bundleDir,
      fileExists: ctx.fileExists,
    });
    if (usable && typeof step.function === 'string') checkFunctionName(ctx, type, step.module, step.function, [...at, 'function']);
  }
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * A step's `function:` against its module's text: a name that occurs nowhere in it as a word cannot
 * be defined there. Only a warning: a module may still get it from another file (`from helpers
 * import *`, a JavaScript `export *` of another module), which reading one file cannot see. An empty
 * module is one not written yet (the studio's "+ New file" makes one): nothing is said of it.
 */
function checkFunctionName(ctx: CheckContext, kind: 'python' | 'node', modulePath: string, fn: string, at: KeyPath): void {
  if (!IDENTIFIER.test(fn)) return; // the schema reports a name that is not an identifier
  const text = ctx.readText?.(bundleFile(ctx.bundleDir, normalizePath(modulePath)));
  if (text === undefined || text.trim() === '') return; // missing (module_not_found), unreadable or not written yet
  const escaped = fn.replace(/\$/g, '\\$');
  if (new RegExp(`(^|[^A-Za-z0-9_$])${escaped}(?![A-Za-z0-9_$])`).test(text)) return;
  ctx.findings.add(
    'function_not_found',
    `The ${kind} function \`${fn}\` is not defined in the module \`${modulePath}\`: the name occurs nowhere in it. ` +
      (kind === 'python' ? `Define it there (\`def ${fn}(value):\`), or fix the name.` : `Export it from there (\`export function ${fn}(value)\`), or fix the name.`),
    at,
  );
}

export function checkProcessors(ctx: CheckContext): void {
  for (const site of processorSites(ctx.fm)) walkSteps(site.steps, site.path, (step, path) => checkStep(ctx, step, path));
}
