// A skill for the abort tests: a quick python step, one that sleeps 60 s (its timeout far past that),
// and — with `stepAfter` — a quick one after it, which an abort must keep from running.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export function slowPythonBundle(name: string, opts: { stepAfter?: boolean } = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), `sc-${name}-`));
  const quick = '    - { type: python, module: ./slow.py, function: quick }\n';
  writeFileSync(
    path.join(dir, 'skill.md'),
    `---\nname: ${name}\nentry: go\ngraph:\n  go: []\noutput_schema: { type: object }\npostprocessor:\n  output_schema: { type: object }\n  steps:\n` +
      quick +
      '    - { type: python, module: ./slow.py, function: nap, timeout_ms: 120000 }\n' +
      (opts.stepAfter ? quick : '') +
      '---\nGo.\n\n## go\nGo.\n',
  );
  writeFileSync(path.join(dir, 'slow.py'), 'import time\n\ndef quick(v):\n    return {"quick": v.get("quick", 0) + 1}\n\ndef nap(v):\n    time.sleep(60)\n    return {"napped": True}\n');
  writeFileSync(path.join(dir, 'model.yaml'), 'turns:\n  - finish: {}\n');
  return dir;
}
