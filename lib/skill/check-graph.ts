/**
 * The phase graph: `entry` and `phases:` keys name phases, every phase is
 * reachable from `entry`, some reachable phase is terminal, and a phase with
 * several successors lets the model choose through a `next` property whose
 * enum is exactly those successors.
 *
 * Owns: those rules. A phase is any key or successor of `graph`; a successor
 * that is not a key is terminal. Does not: check the schemas themselves
 * (check-schemas.ts) or run the graph (lib/kernel).
 */
import { isJsonObject } from '../kernel/json';
import type { CheckContext } from './check-context';
import { resolveSchema } from './check-schemas';
import { arr, has, obj, strings } from './frontmatter';
import type { KeyPath } from './source';
import { didYouMean, editDistance, suggestionSuffix } from './suggest';

const list = (xs: string[]) => xs.map((x) => `\`${x}\``).join(', ');

function firstMention(ctx: CheckContext, phase: string): KeyPath {
  const graph = obj(ctx.fm.graph);
  if (has(graph, phase)) return ['graph', phase];
  for (const [k, v] of Object.entries(graph)) {
    const i = strings(v).indexOf(phase);
    if (i >= 0) return ['graph', k, i];
  }
  return ['graph'];
}

function checkNext(ctx: CheckContext, phase: string, successors: string[]): void {
  const artifacts = obj(ctx.fm.artifacts);
  const settings = obj(obj(ctx.fm.phases)[phase]);
  const declared = has(settings, 'output_schema');
  const schema = declared ? resolveSchema(settings.output_schema, artifacts) : { type: 'object' };
  if (schema === undefined) return; // an unknown artifact is reported where it is named
  const own: KeyPath = ['phases', phase, 'output_schema'];
  const props = isJsonObject(schema) ? obj(schema.properties) : {};
  const next = has(props, 'next') ? obj(props.next) : undefined;
  const inline = declared && typeof settings.output_schema !== 'string';
  const at: KeyPath = !declared ? ['graph', phase] : inline && next ? [...own, 'properties', 'next'] : own;
  const want = `\`next: { enum: [${successors.join(', ')}] }\``;
  const fix = !declared
    ? `give the phase an output_schema (under \`phases.${phase}\`) whose properties include ${want}`
    : typeof settings.output_schema === 'string'
      ? `set ${want} in the properties of artifact \`${settings.output_schema}\``
      : `set ${want} in its properties`;
  if (!next) {
    ctx.findings.add(
      'missing_next',
      `Phase \`${phase}\` has several successors (${list(successors)}), so its output schema must declare a property \`next\` ` +
        `whose enum is exactly those successors, for the model to choose where to go: ${fix}.`,
      at,
      declared && !inline ? 'value' : 'key',
    );
    return;
  }
  const values = Array.isArray(next.enum) ? next.enum : undefined;
  const same = values !== undefined && values.length === new Set(values).size && values.length === successors.length && successors.every((s) => values.includes(s));
  if (!same) {
    ctx.findings.add(
      'missing_next',
      `\`next\` of phase \`${phase}\` must have an enum of exactly its successors (${list(successors)}), ` +
        `but it ${values ? `lists [${values.map(String).join(', ')}]` : 'has no enum'}: ${fix}.`,
      at,
      inline ? 'key' : 'value',
    );
    return;
  }
  const required = isJsonObject(schema) ? strings(schema.required) : [];
  if (!required.includes('next')) {
    ctx.findings.add(
      'next_not_required',
      `Phase \`${phase}\` declares \`next\` but does not require it: a finish artifact without \`next\` cannot choose a successor. Add \`next\` to \`required\`.`,
      at,
      inline ? 'key' : 'value',
    );
  }
}

export function checkGraph(ctx: CheckContext): void {
  const { fm, graph, findings } = ctx;
  const names = graph.phases;
  if (names.length === 0) return; // an empty or missing graph is a structural error
  const entry = graph.entry;
  if (entry !== undefined && !graph.successors.has(entry)) {
    findings.add(
      'unknown_phase',
      `\`entry: ${entry}\` is not a phase of the graph${suggestionSuffix(entry, names)} ` +
        `The phases are ${list(names)}; \`entry\` must be one of them.`,
      ['entry'],
    );
  }
  for (const key of Object.keys(obj(fm.phases))) {
    if (graph.successors.has(key)) continue;
    findings.add(
      'unknown_phase',
      `\`phases.${key}\` configures a phase that is not in the graph${suggestionSuffix(key, names)} ` +
        `Add \`${key}\` to \`graph\` or rename this key to one of ${list(names)}.`,
      ['phases', key],
      'key',
    );
  }
  if (graph.order.length) {
    const reached = new Set(graph.order);
    for (const p of names) {
      if (reached.has(p)) continue;
      findings.add(
        'unreachable_phase',
        `Phase \`${p}\` cannot be reached from \`entry: ${entry}\`: list it as a successor of a reachable phase, or remove it.`,
        firstMention(ctx, p),
        'key',
      );
    }
    if (!graph.order.some((p) => graph.terminal.has(p))) {
      findings.add(
        'no_terminal_phase',
        `No phase reachable from \`${entry}\` is terminal (every one has successors), so a run could never finish: ` +
          'give the last phase an empty successor list, e.g. `review: []`.',
        ['graph'],
        'key',
      );
    }
  }
  for (const p of names) {
    const successors = graph.successors.get(p) ?? [];
    if (successors.length >= 2) checkNext(ctx, p, successors);
  }
}

/** the most edits a successor may be from a phase or heading to be read as its typo */
const MAX_SUCCESSOR_EDITS = 2;

/**
 * A successor that is not a graph key is a terminal phase; with no `## <name>`
 * section either and a name a typo away from a phase or a heading, it is far
 * more likely a misspelt successor (`draft: [pubish]`) than a new phase: a
 * warning at the edge, since the spec allows it. `headings`: the body's `##`
 * heading texts.
 */
export function checkSuccessorNames(ctx: CheckContext, headings: readonly string[]): void {
  const graph = obj(ctx.fm.graph);
  const keys = Object.keys(graph);
  const headed = new Set(headings);
  for (const from of keys) {
    arr(graph[from]).forEach((s, i) => {
      if (typeof s !== 'string' || has(graph, s) || headed.has(s)) return;
      const near = didYouMean(s, [...keys, ...headings].filter((x) => x !== s));
      if (near === undefined || editDistance(s.toLowerCase(), near.toLowerCase()) > MAX_SUCCESSOR_EDITS) return;
      ctx.findings.add(
        'successor_typo',
        `\`${s}\` is not a phase of this skill and has no \`## ${s}\` section — did you mean \`${near}\`?`,
        ['graph', from, i],
      );
    });
  }
}
