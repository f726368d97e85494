/**
 * For CLI tests: a bundle `dir/<name>` of one phase, finished by its model.yaml with `{ greeting: hi }`,
 * whose postprocessor is one node step, `./step.mjs`'s `step` (its source given), its result merged or `into`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function writeOneStepSkill(dir: string, name: string, source: string, into?: string): string {
  const bundle = path.join(dir, name);
  mkdirSync(bundle);
  const step = `{ type: node, module: ./step.mjs, function: step${into ? `, into: ${into}` : ''} }`;
  writeFileSync(
    path.join(bundle, 'skill.md'),
    `---\nname: ${name}\nentry: greet\ngraph:\n  greet: []\noutput_schema: { type: object, required: [greeting] }\npostprocessor:\n  output_schema: { type: object }\n  steps:\n    - ${step}\n---\nGreet.\n`,
  );
  writeFileSync(path.join(bundle, 'step.mjs'), source);
  writeFileSync(path.join(bundle, 'model.yaml'), 'turns:\n  - phase: greet\n    finish: { greeting: hi }\n');
  return bundle;
}

/**
 * A step's source that naps a minute the first time it runs in a workspace, once it marked it with a
 * file `napping` (what a test waits for to stop the command); a later call there (a resume's) finds the
 * mark and returns `{ napped: true }` at once.
 */
export const NAP_ONCE_STEP = `import { existsSync, writeFileSync } from 'node:fs';
export async function step() {
  if (existsSync('napping')) return { napped: true };
  writeFileSync('napping', '');
  await new Promise((r) => setTimeout(r, 60000));
  return { napped: false };
}
`;
