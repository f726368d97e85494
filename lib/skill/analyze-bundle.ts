/**
 * The editor's (and the API's) one call on a bundle held in memory: the
 * bundle's own problems, every finding of skill.md — cross-file ones
 * included, answered from the files map — and the diagram model, all from one
 * parse of skill.md.
 *
 * Owns: the in-memory bundle's `fileExists` (module paths against the map,
 * `run_skill` targets against the workspace's skill names) and the mapping of
 * `BundleProblem`s to Diagnostics. Does not: read folders, compile, or lay
 * anything out. Imports nothing from Node: it runs on every keystroke in the
 * browser.
 */
import type { Diagnostic } from '../kernel/errors';
import type { BundleFiles, BundleProblem } from './bundle';
import { checkBundle, SKILL_MD } from './bundle';
import type { FileExists } from './bundle-paths';
import { IN_MEMORY_BUNDLE } from './bundle-paths';
import type { DiagramModel } from './diagram';
import { diagramOf } from './diagram';
import { has } from './frontmatter';
import { RULES } from './rules';
import type { SkillAnalysis, ValidateOptions } from './validate';
import { analyzeSkill } from './validate';

export type BundleAnalysis = {
  /** the bundle's problems first, then skill.md's findings by position */
  diagnostics: Diagnostic[];
  /** null when skill.md is missing or has no frontmatter mapping to draw */
  diagram: DiagramModel | null;
  /** what the skill.md passes learnt (no frontmatter when skill.md is missing) */
  analysis: SkillAnalysis;
};

export type AnalyzeBundleOptions = {
  /** the name skill.md's findings carry (default `skill.md`) */
  file?: string;
  /** the workspace's skill names `run_skill` may target; undefined: targets are not checked */
  knownSkills?: readonly string[];
  /** the stored skill this bundle is (or will be) a version of: a different frontmatter `name` is a warning */
  skillName?: string;
  /** parses skill.md's frontmatter (default: afresh each time; the editor's reuses its last parse) */
  parseFrontmatter?: ValidateOptions['parseFrontmatter'];
  /**
   * bundle paths a folder holds but whose reading was refused (binary, unreadable, too large: said as
   * that problem), so that a `module:` naming one is not also said to name no file
   */
  refused?: ReadonlySet<string>;
};

const SIBLING_SKILL = /^\.\.\/([^/]+)\/skill\.md$/;

/**
 * Whether a file exists, for a bundle in memory: a bundle path is looked up in
 * the map; a path outside the bundle is a `run_skill` target (`../<name>/skill.md`),
 * looked up in the workspace's skills.
 */
export function inMemoryFileExists(files: BundleFiles, knownSkills?: readonly string[]): FileExists {
  return (p) => {
    if (!p.startsWith('../') && !p.startsWith('/')) return has(files, p) && typeof files[p] === 'string';
    if (knownSkills === undefined) return true;
    const m = SIBLING_SKILL.exec(p);
    return m !== null && knownSkills.includes(m[1]);
  };
}

/** A bundle-level problem as a finding: in `fileOf(path)` (skill.md for the bundle itself), where it is located or at 1:1. */
export function bundleProblemDiagnostic(p: BundleProblem, fileOf: (path: string) => string): Diagnostic {
  const line = p.line ?? 1;
  const column = p.column ?? 1;
  return { severity: RULES[p.code].severity, rule: p.code, message: p.message, file: fileOf(p.path), line, column, endLine: line, endColumn: column + 1, path: '' };
}

export function analyzeBundle(files: BundleFiles, opts: AnalyzeBundleOptions = {}): BundleAnalysis {
  const file = opts.file ?? SKILL_MD;
  const problems = checkBundle(files).map((p) => bundleProblemDiagnostic(p, (at) => (at === '' || at === SKILL_MD ? file : at)));
  const isMap = files !== null && typeof files === 'object' && !Array.isArray(files);
  const text = isMap && has(files, SKILL_MD) ? (files[SKILL_MD] as unknown) : undefined;
  if (typeof text !== 'string') return { diagnostics: problems, diagram: null, analysis: { diagnostics: [] } };
  const analysis = analyzeSkill(text, {
    file,
    bundleDir: IN_MEMORY_BUNDLE,
    fileExists: refusedOrIn(opts.refused, inMemoryFileExists(files, opts.knownSkills)),
    readText: (p) => (has(files, p) && typeof files[p] === 'string' ? (files[p] as string) : undefined),
    parseFrontmatter: opts.parseFrontmatter,
  });
  if (opts.skillName !== undefined) checkName(analysis, opts.skillName, file);
  return { diagnostics: [...problems, ...analysis.diagnostics], diagram: diagramOf(analysis), analysis };
}

function refusedOrIn(refused: ReadonlySet<string> | undefined, exists: FileExists): FileExists {
  return refused?.size ? (p) => refused.has(p) || exists(p) : exists;
}

/** `name:` against the stored skill's name (runs and run_skill know the skill by the latter). */
function checkName(analysis: SkillAnalysis, skillName: string, file: string): void {
  const named = analysis.frontmatter?.name;
  if (typeof named !== 'string' || named === skillName || !analysis.source) return;
  const finding: Diagnostic = {
    severity: RULES.name_mismatch.severity,
    rule: 'name_mismatch',
    message:
      `skill.md says \`name: ${named}\`, but this is the skill ${skillName}: runs and run_skill know it as ${skillName}. ` +
      `Set \`name: ${skillName}\`, or rename the skill.`,
    file,
    ...analysis.source.locate(['name']),
    path: 'name',
  };
  const ds = analysis.diagnostics;
  const i = ds.findIndex((d) => d.line > finding.line || (d.line === finding.line && d.column > finding.column));
  ds.splice(i < 0 ? ds.length : i, 0, finding);
}
