import { validateSkill } from '../validate';
import { formatDiagnostic } from '../../kernel/errors';
const cases = [
  '---\nname: demo\ngraph:\n  draft: [review\n---\n',
  '---\nname: demo\nentry: x\n  bad: 1\n---\n',
  '---\nname: !foo demo\n---\n',
  '---\n%YAML 1.1\nname: demo\n---\n',
  '---\nname: demo\nentry: draft\nname: again\n---\n',
  '---\n- a\n---\n',
  '---\n---\nbody',
  '---\nname: "demo\n---\n',
  '---\nname:\tdemo\n\tentry: x\n---\n',
];
for (const c of cases) {
  console.log('====', JSON.stringify(c));
  for (const d of validateSkill(c, { file: 'f', bundleDir: '/ws/demo', fileExists: () => true }).diagnostics) console.log(formatDiagnostic(d), d.rule, d.endLine + ':' + d.endColumn);
}
