// A hostile skill for the escape suites: it finishes at once (or after the model's turns) and then runs
// the attack as its postprocessor, from files written beside its skill.md.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export type Attack = { files: Record<string, string>; model?: string; steps: string; ops?: string; effects?: string };

/** The bundle folder `root/name` for an attack (ops listed are permitted, with fs effects unless `effects` names others). */
export function attackBundle(root: string, name: string, a: Attack): string {
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  const ops = a.ops ?? '';
  writeFileSync(
    path.join(dir, 'skill.md'),
    `---
name: ${name}
entry: go
graph:
  go: []
output_schema: { type: object }
${ops ? `phases:\n  go:\n    tools: [${ops}]\npermissions:\n  ops: [${ops}]\n  effects: [${a.effects ?? 'fs.read, fs.write'}]\n` : ''}postprocessor:
  output_schema: { type: object }
  steps:
${a.steps}
---
Go.
`,
  );
  writeFileSync(path.join(dir, 'model.yaml'), a.model ?? 'turns:\n  - finish: {}\n');
  for (const [p, text] of Object.entries(a.files)) {
    mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    writeFileSync(path.join(dir, p), text);
  }
  return dir;
}

export const pyStep = (fn: string, extra = '') => `    - { type: python, module: ./attack.py, function: ${fn}${extra} }`;
export const nodeStep = (fn: string, extra = '') => `    - { type: node, module: ./attack.mjs, function: ${fn}${extra} }`;
