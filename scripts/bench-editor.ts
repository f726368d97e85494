// npm run bench:editor — the editor's per-keystroke work on a large skill, printed as one JSON line.
//   A generated skill.md: 100 phases (chains with branches chosen by `next`, tools, input/output
//   schemas by artifact name and inline, a few preprocessors), 5 capabilities (one refused) and a
//   50-step postprocessor (python/node steps whose modules are in the bundle, validate, run_op,
//   lint_plan, iterate). Each iteration changes one character of the frontmatter and runs
//   `analyzeBundle` (validation + diagram model); the same loop parses the same frontmatter with
//   `parseDocument` alone, interleaved, as the yardstick; and the studio's own per-keystroke call, the
//   analysis worker's `Analyzer` (it re-parses only the piece of the frontmatter that changed and sends
//   only what changed): `studioAnalyzerMs`, and `incrementalSpeedup` (analyzeBundle's median over its).
// --tiny or BENCH_TINY=1: 20 keystrokes (the script works; the figures mean little).
// Target: median ≤ 16 ms per keystroke (one frame) and ≤ 3× the YAML parse.
import { parseDocument } from 'yaml';
import { Analyzer } from '../components/studio/analysis/studio-analysis';
import { analyzeBundle } from '../lib/skill/analyze-bundle';
import type { BundleFiles } from '../lib/skill/bundle';
import { splitSkill } from '../lib/skill/source';
import { benchFiles, PHASES, skillText, STEPS } from './bench-editor-skill';
import { size, TINY } from '../bench/tiny';
import { COMPILED } from '../bench/compiled';

const WARMUP = size(40, 4);
const ITERATIONS = size(300, 20);
const TARGET_MS = 16;
const TARGET_RATIO = 3;

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** One keystroke: alternately the description's last letter and a phase's max_rounds (frontmatter only). */
function keystroke(text: string, i: number): string {
  if (i % 2 === 0) return text.replace(/(description: .* )[a-z]\n/, `$1${LETTERS[(i / 2 + 1) % LETTERS.length]}\n`);
  return text.replace(/( {2}p050:\n(?: {4}.*\n)*? {4}max_rounds: )\d+/, `$1${1 + ((i - 1) / 2) % 9}`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];
const now = () => Number(process.hrtime.bigint()) / 1e6;
const round = (x: number) => Math.round(x * 1000) / 1000;

function main(): void {
  let text = skillText();
  const files: BundleFiles = benchFiles(text);
  const first = analyzeBundle(files, { knownSkills: [] });
  const errors = first.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length || !first.diagram) {
    throw new Error(`the generated skill is not valid: ${errors.slice(0, 5).map((d) => `${d.line}:${d.column} ${d.rule} ${d.message}`).join('\n')}`);
  }
  const refused = first.diagram.stages.filter((s) => s.refused).length;
  if (first.diagram.nodes.filter((n) => n.kind === 'phase').length !== PHASES || refused !== 1) throw new Error('the generated skill is not the one described');

  const analyzeMs: number[] = [];
  const yamlMs: number[] = [];
  const studioMs: number[] = [];
  const analyzer = new Analyzer();
  analyzer.analyze({ kind: 'analyze', id: 1, files, knownSkills: [], skillName: 'bench' });
  for (let i = 0; i < WARMUP + ITERATIONS; i++) {
    const next = keystroke(text, i);
    if (next === text) throw new Error(`keystroke ${i} changed nothing`);
    text = next;
    const split = splitSkill(text);
    if ('rule' in split) throw new Error(split.message);
    // interleaved, in alternating order, so neither side always runs on a warmer cache
    const runAnalyze = () => {
      const t = now();
      analyzeBundle({ ...files, 'skill.md': text }, { knownSkills: [] });
      return now() - t;
    };
    const runYaml = () => {
      const t = now();
      parseDocument(split.frontmatter, { prettyErrors: false, keepSourceTokens: false });
      return now() - t;
    };
    const runStudio = () => {
      const t = now();
      analyzer.analyze({ kind: 'analyze', id: i + 2, files: { ...files, 'skill.md': text }, knownSkills: [], skillName: 'bench' });
      return now() - t;
    };
    const [a, y] = i % 2 ? [runAnalyze(), runYaml()] : (([yy, aa]) => [aa, yy])([runYaml(), runAnalyze()]);
    const st = runStudio();
    if (i >= WARMUP) {
      analyzeMs.push(a);
      yamlMs.push(y);
      studioMs.push(st);
    }
  }
  const perKeystroke = { median: round(median(analyzeMs)), p95: round(p95(analyzeMs)) };
  const yamlParse = { median: round(median(yamlMs)), p95: round(p95(yamlMs)) };
  const ratio = Math.round((median(analyzeMs) / median(yamlMs)) * 100) / 100;
  console.log(
    JSON.stringify({
      bench: 'editor',
      tiny: TINY,
      compiled: COMPILED,
      phases: PHASES,
      steps: STEPS,
      bytes: Buffer.byteLength(text, 'utf8'),
      iterations: ITERATIONS,
      perKeystrokeMs: perKeystroke,
      yamlParseMs: yamlParse,
      ratio,
      studioAnalyzerMs: { median: round(median(studioMs)), p95: round(p95(studioMs)) },
      incrementalSpeedup: Math.round((median(analyzeMs) / median(studioMs)) * 100) / 100,
      targetMs: TARGET_MS,
      targetRatio: TARGET_RATIO,
      ok: perKeystroke.median <= TARGET_MS && ratio <= TARGET_RATIO,
    }),
  );
}

// --browser: the same skill typed into the studio in Chromium (bench-editor-browser.ts)
if (process.argv.includes('--browser')) await (await import('./bench-editor-browser')).main();
else main();
