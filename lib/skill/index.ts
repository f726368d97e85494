/**
 * lib/skill — skill.md parse, validate (located errors), the editor's JSON
 * Schema, compile to a kernel `Plan`, and the diagram model for drawing.
 *
 * The public API; import from here on the server and in the CLI. This barrel
 * pulls in Node modules (compile.ts: node:crypto, load.ts: node:fs). Browser
 * code (the editor) imports `lib/skill/analyze-bundle`, `lib/skill/diagram`,
 * `lib/skill/key-info`, `lib/skill/validate` and `lib/skill/schema` directly:
 * those import nothing from Node.
 */
export { validateSkill, MAX_SKILL_BYTES } from './validate';
export type { ValidateOptions } from './validate';
export { compileSkill, emptyValueFor } from './compile';
export type { CompileOptions, CompileResult } from './compile';
export { loadSkillBundle } from './load';
export type { LoadedSkill } from './load';
export { analyzeBundle, inMemoryFileExists } from './analyze-bundle';
export type { AnalyzeBundleOptions, BundleAnalysis } from './analyze-bundle';
export { diagramOf, nodeAt } from './diagram';
export type {
  ContractDiagramNode,
  ContractRef,
  DiagramEdge,
  DiagramModel,
  DiagramNode,
  DiagramRegion,
  NodeProblem,
  PhaseDiagramNode,
  StageGroup,
  StageItem,
  StepDiagramNode,
  StepItem,
} from './diagram';
export { describeKey, describeKeyAt, DOC_ANCHORS, keyPathAt, keyPathIn } from './key-info';
export type { DocAnchor, KeyInfo } from './key-info';
export {
  skillFrontmatterSchema,
  STEP_TYPES,
  ON_ERROR,
  DEFAULT_MAX_ROUNDS,
  MAX_ROUNDS_LIMIT,
  DEFAULT_STEP_TIMEOUT_MS,
  STEP_TIMEOUT_LIMIT_MS,
  SKILL_NAME_PATTERN,
} from './schema';
export { BUNDLE_RULES, RULES, RULE_IDS } from './rules';
export type { RuleId } from './rules';
export type { FileExists } from './bundle-paths';
export type { Frontmatter } from './frontmatter';
export { readBody } from './body';
export type { BodySections } from './body';
export { splitSkill } from './source';
