// The large skill the editor benchmarks type into (npm run bench:editor, with or without --browser):
// 100 phases (chains with branches chosen by `next`, tools, input/output schemas by artifact name
// and inline, a few preprocessors), 5 capabilities (one refused) and a 50-step postprocessor
// (python/node steps whose modules are in the bundle, validate, run_op, lint_plan, iterate).
// The same shape at another size (`SMALL`: the small skill the browser bench holds the large one
// against) comes from `skillText(size)`.
export const PHASES = 100;
export const STEPS = 50;

export type SkillSize = { phases: number; steps: number };
export const LARGE: SkillSize = { phases: PHASES, steps: STEPS };
export const SMALL: SkillSize = { phases: 5, steps: 6 };

const pad = (i: number) => String(i).padStart(3, '0');
const phaseName = (i: number) => `p${pad(i)}`;
/** every tenth phase branches to the next two; the others chain to the next */
const isBranch = (i: number, phases: number) => i % 10 === 3 && i + 2 < phases;

function artifacts(): string {
  const out = ['artifacts:'];
  for (let a = 0; a < 20; a++) {
    out.push(
      `  a${pad(a)}:`,
      '    type: object',
      '    properties:',
      '      title: { type: string, minLength: 1 }',
      '      body: { type: string }',
      `      score${a}: { type: integer, minimum: 0, maximum: 100 }`,
      '      tags: { type: array, items: { type: string } }',
      '    required: [title, body]',
    );
  }
  out.push(
    '  result:',
    '    type: object',
    '    properties: { title: { type: string }, html: { type: string }, words: { type: integer }, items: { type: array, items: { type: object } } }',
    '    required: [title]',
  );
  return out.join('\n');
}

function graph(phases: number): string {
  const out = ['graph:'];
  for (let i = 0; i < phases; i++) {
    const next = i === phases - 1 ? [] : isBranch(i, phases) ? [i + 1, i + 2] : [i + 1];
    out.push(`  ${phaseName(i)}: [${next.map(phaseName).join(', ')}]`);
  }
  return out.join('\n');
}

function phases(count: number): string {
  const out = ['phases:'];
  for (let i = 0; i < count; i++) {
    const lines: string[] = [];
    if (isBranch(i, count)) {
      lines.push(
        '    output_schema:',
        '      type: object',
        `      properties: { next: { enum: [${phaseName(i + 1)}, ${phaseName(i + 2)}] }, note: { type: string } }`,
        '      required: [next]',
      );
    } else if (i < count - 1 && i % 2 === 0) {
      lines.push(`    output_schema: a${pad(i % 20)}`);
    } else if (i < count - 1 && i % 7 === 0) {
      lines.push('    output_schema: { type: object, properties: { summary: { type: string } }, required: [summary] }');
    }
    if (i % 3 === 0) lines.push(`    input_schema: a${pad((i + 5) % 20)}`);
    if (i % 4 === 0) lines.push('    tools: [file/read]');
    if (i % 5 === 0) lines.push(`    max_rounds: ${3 + (i % 6)}`);
    if (i % 20 === 1) {
      lines.push(
        '    preprocessor:',
        '      steps:',
        '        - type: run_op',
        '          op: file/read',
        `          args: { path: notes/${phaseName(i)}.txt }`,
        '          into: notes',
        '          on_error: empty',
        '        - type: python',
        '          module: ./prep.py',
        '          function: shape',
        '          pure: true',
      );
    }
    if (lines.length) out.push(`  ${phaseName(i)}:`, ...lines);
  }
  return out.join('\n');
}

const CAPABILITIES = `capabilities:
  - name: result_budget
    stage: post-tool
    uses: builtin:tool_result_budget
    with: { max_chars: 4000 }
  - name: redact
    stage: finalize
    uses: builtin:pii_redact
  - name: numbers
    stage: post-model
    uses: builtin:unverified_numbers
  - name: house_style
    stage: post-model
    uses: ./caps.mjs#houseStyle
    effects: []
  - name: tool_gate
    stage: pre-tool
    uses: ./caps.mjs#gate
    effects: [tools.gate]
permissions:
  ops: [file/read, run_skill]
  effects: [fs.read, transcript.write, artifact.write]`;

function postprocessor(steps: number): string {
  const out = ['postprocessor:', '  output_schema: result', '  steps:'];
  for (let s = 0; s < steps; s++) {
    switch (s % 6) {
      case 0:
        out.push('    - type: python', '      module: ./rendering.py', `      function: render_${s}`, ...(s % 12 === 0 ? ['      pure: true'] : []));
        break;
      case 1:
        out.push('    - type: node', '      module: ./steps.mjs', `      function: step${s}`, `      into: out${s}`, '      on_error: empty');
        break;
      case 2:
        out.push('    - type: validate', s % 4 === 0 ? `      schema: a${pad(s % 20)}` : `      schema: { type: object, required: [title], properties: { title: { type: string, maxLength: ${100 + s} } } }`);
        break;
      case 3:
        out.push('    - type: run_op', '      op: file/read', `      args: { path: "out/\${title}-${s}.txt" }`, `      into: read${s}`, '      on_error: skip');
        break;
      case 4:
        out.push(
          '    - type: iterate',
          '      over: items',
          `      into: items${s}`,
          '      steps:',
          '        - type: python',
          '          module: ./rendering.py',
          '          function: item',
          '        - type: validate',
          '          schema: { type: object }',
        );
        break;
      default:
        out.push('    - type: lint_plan', '      plan: plan', `      into: lint${s}`);
    }
  }
  return out.join('\n');
}

export function skillText(size: SkillSize = LARGE, name = 'big_editor_bench'): string {
  const body = Array.from({ length: size.phases }, (_, i) => `## ${phaseName(i)}\n\nDo step ${i} of the work carefully.\n`).join('\n');
  return [
    '---',
    `name: ${name}`,
    'description: A large generated skill for the editor benchmark a',
    `entry: ${phaseName(0)}`,
    graph(size.phases),
    'final_output: result',
    artifacts(),
    phases(size.phases),
    CAPABILITIES,
    postprocessor(size.steps),
    '---',
    'You are a careful worker.',
    '',
    body,
  ].join('\n');
}

/** the bundle: the skill and the modules its steps and capabilities name */
export function benchFiles(text = skillText()): Record<string, string> {
  return {
    'skill.md': text,
    'rendering.py': 'def render(value):\n    return value\n',
    'steps.mjs': 'export function step(value) { return value; }\n',
    'prep.py': 'def shape(value):\n    return value\n',
    'caps.mjs': 'export function houseStyle() {}\nexport function gate() {}\n',
  };
}
