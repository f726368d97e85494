// The bench's skill (bench-store.ts, bench-kernel.ts): a model turn that finishes, then a
// postprocessor of n steps — `node` code steps (./step.mjs `step`, `pure: true` for the pure
// kind) or, with step `op`, the builtin workspace/write op writing 200 bytes (the peers' result).
// `caps`: that many user capabilities (./caps.mjs `cap0`, `cap1`…) on the post-model rung, each run
// once per run (bench-kernel-run.ts --caps: the capability path).

/** what each op step writes: 200 bytes, as the peers' step result */
export const OP_CONTENT = 'x'.repeat(200);

export function benchSkillText(kind: 'effectful' | 'pure', n: number, step: string, caps = 0): string {
  const steps = Array.from({ length: n }, () =>
    step === 'op'
      ? `    - { type: run_op, op: workspace/write, args: { path: out.json, content: "${OP_CONTENT}" }, into: last }`
      : `    - { type: node, module: ./step.mjs, function: step${kind === 'pure' ? ', pure: true' : ''} }`,
  ).join('\n');
  const permissions = step === 'op' ? 'permissions:\n  ops: [workspace/write]\n  effects: [workspace.write]\n' : '';
  const capabilities = caps ? `capabilities:\n${Array.from({ length: caps }, (_, i) => `  - { name: cap${i}, stage: post-model, uses: ./caps.mjs#cap${i} }`).join('\n')}\n` : '';
  return `---\nname: bench_${kind}\nentry: main\ngraph:\n  main: []\noutput_schema: { type: object }\n${permissions}${capabilities}postprocessor:\n  output_schema: { type: object, required: [last] }\n  steps:\n${steps}\n---\nBenchmark.\n`;
}
