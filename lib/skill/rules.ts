/**
 * The catalogue of skill.md validator rules and the one way findings are made.
 *
 * Owns: every rule id the validator can emit, its severity and a one-line
 * summary (the docs and the rule-coverage test read this table), and
 * `Findings`, which turns (rule, message, key path) into a located
 * `Diagnostic`. Does not: decide when a rule fires — the check modules do.
 */
import type { Diagnostic } from '../kernel/errors';
import type { BundleProblemCode } from './bundle';
import type { FrontmatterSource, KeyPath, Span } from './source';
import { formatPath } from './source';

type RuleDef = { severity: 'error' | 'warning'; summary: string };

/**
 * The bundle's own problems (bundle.ts `checkBundle`, and reading a folder),
 * reported as findings of the file they name; every code has a rule here.
 */
const BUNDLE_PROBLEM_RULES = {
  bundle_no_skill_md: { severity: 'error', summary: 'the bundle has no skill.md' },
  bundle_path_invalid: { severity: 'error', summary: 'a bundle path is empty, too long, or has a control character, a backslash or an empty or `.` segment' },
  bundle_path_absolute: { severity: 'error', summary: 'a bundle path is absolute' },
  bundle_path_escape: { severity: 'error', summary: 'a bundle path leaves the bundle (`..`)' },
  bundle_path_vcs: { severity: 'error', summary: 'a bundle path is inside a version-control folder (`.git/`, `.hg/`, `.svn/`, …)' },
  bundle_too_many_files: { severity: 'error', summary: 'the bundle has more than MAX_BUNDLE_FILES files' },
  bundle_too_large: { severity: 'error', summary: 'the bundle is larger than MAX_BUNDLE_BYTES' },
  bundle_file_too_large: { severity: 'error', summary: 'a file other than skill.md is larger than MAX_BUNDLE_FILE_BYTES' },
  bundle_file_binary: { severity: 'error', summary: 'a bundle file is binary (holds a NUL)' },
  bundle_file_not_text: { severity: 'error', summary: "a file's content is not a string" },
  bundle_symlink_escape: { severity: 'error', summary: 'a symbolic link in a bundle folder points outside it' },
  bundle_unreadable: { severity: 'error', summary: 'a file of a bundle folder cannot be read' },
  skill_md_not_utf8: { severity: 'error', summary: 'skill.md in a bundle folder is not valid UTF-8 (located at the first bad byte)' },
} as const satisfies Record<BundleProblemCode, RuleDef>;

/** Findings about a bundle that validating skill.md's text alone cannot make (analyze-bundle.ts makes them). */
export const BUNDLE_RULES = {
  ...BUNDLE_PROBLEM_RULES,
  name_mismatch: { severity: 'warning', summary: "skill.md's `name` is not the name of the stored skill it is a version of" },
} as const satisfies Record<string, RuleDef>;

export const RULES = {
  ...BUNDLE_RULES,
  // ---- the file and its YAML
  skill_too_large: { severity: 'error', summary: 'skill.md is larger than MAX_SKILL_BYTES' },
  frontmatter_missing: { severity: 'error', summary: 'the file does not start with a `---` line' },
  frontmatter_unterminated: { severity: 'error', summary: 'the frontmatter has no closing `---` line' },
  yaml_syntax: { severity: 'error', summary: 'the frontmatter is not valid YAML' },
  duplicate_key: { severity: 'error', summary: 'a mapping repeats a key' },
  yaml_warning: { severity: 'warning', summary: 'the YAML parser warns about the frontmatter' },
  frontmatter_not_mapping: { severity: 'error', summary: 'the frontmatter is empty or not a mapping of keys' },
  // ---- structure (the frontmatter JSON Schema)
  unknown_key: { severity: 'error', summary: 'a key the format does not have (with "did you mean")' },
  missing_key: { severity: 'error', summary: 'a required key is absent' },
  wrong_type: { severity: 'error', summary: 'a value has the wrong JSON type' },
  invalid_value: { severity: 'error', summary: 'a value is not one of the allowed values' },
  invalid_name: { severity: 'error', summary: '`name` does not match ^[a-z][a-z0-9_]{0,63}$' },
  invalid_phase_name: { severity: 'error', summary: 'a phase or capability name is not a plain identifier, or is reserved' },
  out_of_range: { severity: 'error', summary: 'a number is outside its allowed range' },
  duplicate_item: { severity: 'error', summary: 'a list repeats an item' },
  too_short: { severity: 'error', summary: 'a string or list is empty where it may not be' },
  unknown_op: { severity: 'error', summary: 'an op that is not in the op registry' },
  unknown_effect: { severity: 'error', summary: 'an effect name Stagecraft does not know' },
  unknown_rung: { severity: 'error', summary: '`stage` is not a rung of the phase ladder' },
  unknown_step_type: { severity: 'error', summary: 'a processor step type that does not exist' },
  model_step: { severity: 'error', summary: 'a processor step that would call the model' },
  ask_user_in_processor: { severity: 'error', summary: '`ask_user` in a preprocessor or postprocessor step' },
  unknown_builtin: { severity: 'error', summary: '`uses: builtin:<name>` names no builtin' },
  bad_uses: { severity: 'error', summary: '`uses` is neither builtin:<name> nor ./file#export' },
  schema_violation: { severity: 'error', summary: 'any other frontmatter schema violation' },
  // ---- the phase graph
  unknown_phase: { severity: 'error', summary: '`entry` or a `phases:` key is not a phase of the graph' },
  unreachable_phase: { severity: 'error', summary: 'a phase cannot be reached from `entry`' },
  no_terminal_phase: { severity: 'error', summary: 'no phase reachable from `entry` is terminal: the run could never finish' },
  missing_next: { severity: 'error', summary: 'a phase with several successors lacks `next` with exactly those successors' },
  next_not_required: { severity: 'warning', summary: '`next` is declared but not required' },
  successor_typo: { severity: 'warning', summary: 'a successor that is no graph key and has no `## <name>` section is a typo away from a phase or heading' },
  // ---- schemas and contracts
  unknown_artifact: { severity: 'error', summary: 'a schema reference names no artifact' },
  invalid_schema: { severity: 'error', summary: 'an inline schema or artifact does not compile under JSON Schema 2020-12' },
  duplicate_contract: { severity: 'error', summary: 'both `final_output` and `output_schema` are given' },
  missing_final_output: { severity: 'error', summary: 'no LLM contract is declared anywhere' },
  terminal_contract_mismatch: { severity: 'error', summary: "a terminal phase's own output_schema differs from the LLM contract" },
  contract_not_object: { severity: 'warning', summary: 'a contract or phase schema cannot describe a JSON object' },
  // ---- ops and permissions
  op_not_permitted: { severity: 'error', summary: 'an op used in `tools` or `run_op` is not in permissions.ops' },
  op_effect_not_granted: { severity: 'warning', summary: "an op's effects are not in permissions.effects" },
  op_args: { severity: 'error', summary: "run_op `args` do not fit the op's arguments" },
  run_skill_not_found: { severity: 'warning', summary: 'run_skill names no skill of the workspace (a bundle folder with no skill.md)' },
  // ---- processor steps and bundle files
  empty_needs_into: { severity: 'error', summary: '`on_error: empty` on a step without `into`' },
  module_path_absolute: { severity: 'error', summary: 'a module path is absolute' },
  module_path_escape: { severity: 'error', summary: 'a module path leaves the bundle folder' },
  module_extension: { severity: 'error', summary: 'a module has the wrong file extension for its language' },
  module_not_found: { severity: 'error', summary: 'a module file does not exist in the bundle' },
  function_not_found: { severity: 'warning', summary: "a code step's `function` occurs nowhere in its module's text" },
  // ---- capabilities
  duplicate_stage: { severity: 'error', summary: 'two capabilities share a name' },
  builtin_rung: { severity: 'error', summary: 'a builtin sits on a rung it does not support' },
  effect_not_granted: { severity: 'warning', summary: "a capability's effects are not in permissions.effects (refused at run time)" },
  contribution_effect_undeclared: {
    severity: 'warning',
    summary: "a capability does not declare the effect its rung's contribution needs",
  },
  // ---- body
  heading_not_phase: { severity: 'warning', summary: 'a `## Heading` close to a phase name but not one' },
  duplicate_phase_heading: { severity: 'warning', summary: 'two `## <phase>` sections for one phase' },
} as const satisfies Record<string, RuleDef>;

export type RuleId = keyof typeof RULES;
export const RULE_IDS = Object.keys(RULES) as RuleId[];

/** Collects the findings of one validation, located through the frontmatter source. */
export class Findings {
  readonly list: Diagnostic[] = [];
  constructor(
    readonly file: string,
    private readonly source?: FrontmatterSource,
  ) {}

  /** A finding at an explicit span (body headings, the file as a whole). */
  addAt(rule: RuleId, message: string, span: Span, path: KeyPath | string = '', severity?: 'error' | 'warning'): void {
    this.list.push({
      severity: severity ?? RULES[rule].severity,
      rule,
      message,
      file: this.file,
      line: span.line,
      column: span.column,
      endLine: span.endLine,
      endColumn: span.endColumn,
      path: typeof path === 'string' ? path : formatPath(path),
    });
  }

  /** A finding at the value (default) or key of a frontmatter path. */
  add(rule: RuleId, message: string, path: KeyPath, where: 'key' | 'value' = 'value'): void {
    const span = this.source ? this.source.locate(path, where) : { line: 1, column: 1, endLine: 1, endColumn: 4 };
    this.addAt(rule, message, span, path);
  }

  get hasErrors(): boolean {
    return this.list.some((d) => d.severity === 'error');
  }

  /** Sorted by position, exact duplicates dropped (two checks may reach one fact). */
  sorted(): Diagnostic[] {
    const seen = new Set<string>();
    const out: Diagnostic[] = [];
    for (const d of this.list) {
      const k = `${d.rule}|${d.line}|${d.column}|${d.message}`;
      if (seen.has(k)) continue;
      seen.add(k);
      out.push(d);
    }
    return out
      .map((d, i) => ({ d, i }))
      .sort((a, b) => a.d.line - b.d.line || a.d.column - b.d.column || a.i - b.i)
      .map((x) => x.d);
  }
}
