/**
 * Errors of skills and what is given to run them: a skill.md's located findings, a pattern RE2
 * cannot match, a skill name or version hash that names none, a folder of another skill, an invalid
 * bundle, an input that breaks the entry phase's contract, and a pull that would replace unsaved work. Re-exported by `lib/kernel/errors`.
 *
 * Owns: the messages' words for these (a long looked-up name is cut). Does not: validate anything.
 */
import type { Json } from '../json';
import { counted, plural } from '../plural';
import { StagecraftError } from './base';

/** One located finding in a skill.md (error or warning). */
export type Diagnostic = {
  severity: 'error' | 'warning';
  /** stable rule id, e.g. `unknown_key`, `unreachable_phase` */
  rule: string;
  message: string;
  file: string;
  /** 1-based */
  line: number;
  /** 1-based */
  column: number;
  endLine?: number;
  endColumn?: number;
  /** frontmatter key path, e.g. `phases.draft.tools[1]` (empty for body findings) */
  path: string;
};

export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column}: ${d.severity}: ${d.message}${d.path ? ` [${d.path}]` : ''}`;
}

export class SkillValidationError extends StagecraftError {
  readonly diagnostics: Diagnostic[];
  /** `rest`: where the errors past the first are listed (the CLI names `stagecraft validate`) */
  constructor(diagnostics: Diagnostic[], rest?: string) {
    const errors = diagnostics.filter((d) => d.severity === 'error');
    const first = errors[0];
    super(
      'skill_invalid',
      `skill.md has ${plural(errors.length, 'error')}` +
        (first ? `; first: ${formatDiagnostic(first)}` : '') +
        (rest && errors.length > 1 ? `\n${rest}` : ''),
      { httpStatus: 422, details: { diagnostics: diagnostics as unknown as Json } },
    );
    this.diagnostics = diagnostics;
  }
}

/** A JSON Schema `pattern` the linear-time engine (RE2) cannot express: a backreference, lookaround, … */
export class PatternUnsupportedError extends StagecraftError {
  readonly pattern: string;
  constructor(pattern: string, reason: string) {
    super(
      'pattern_unsupported',
      `The pattern ${JSON.stringify(pattern)} cannot be matched in linear time: ${reason}. ` +
        'Patterns are matched by RE2, so that no input can stall a run or the server; rewrite it in RE2 syntax (no backreferences, no lookahead or lookbehind).',
      { httpStatus: 422, details: { pattern } },
    );
    this.pattern = pattern;
  }
}

/** the longest skill name there can be (SKILL_NAME_PATTERN) */
const LONGEST_SKILL_NAME = 64;

/** a looked-up name as a message quotes it: one longer than any skill name is cut, with its length */
function quotedName(name: string): string {
  if (name.length <= LONGEST_SKILL_NAME) return JSON.stringify(name);
  return `${JSON.stringify(`${name.slice(0, LONGEST_SKILL_NAME)}…`)} (${name.length} characters: no skill name is longer than ${LONGEST_SKILL_NAME})`;
}

export class SkillNotFoundError extends StagecraftError {
  /** `how`: where to find the names (the API's words by default; the CLI gives its own) */
  constructor(name: string, how = "List the skills (GET /api/skills, or the app's home page) and check the name.") {
    super('skill_not_found', `No skill named ${quotedName(name)}. ${how}`, {
      httpStatus: 404,
      details: { skill: name },
    });
  }
}

/** A new skill (or a rename) would take a name a live skill has. */
export class SkillExistsError extends StagecraftError {
  constructor(name: string) {
    super('skill_exists', `A skill named ${JSON.stringify(name)} already exists: choose another name, or open that skill.`, {
      httpStatus: 409,
      details: { skill: name },
    });
  }
}

export class VersionNotFoundError extends StagecraftError {
  /** what was wrong with the hash (kept out of the JSON: the message says it) */
  readonly why: string;
  /** `how`: where to find the hashes (the API's words by default; the CLI gives its own) */
  constructor(skill: string, hash: string, why = 'no version of it has that hash', how = `List its versions (GET /api/skills/${skill}/versions) and use one of their hashes.`) {
    super('version_not_found', `Skill ${JSON.stringify(skill)}: ${why} (${hash}). ${how}`, {
      httpStatus: 404,
      details: { skill, version: hash },
    });
    this.why = why;
  }
}

/**
 * A replay or fork given a folder (`--skill DIR`) that holds another skill than the run's: its steps
 * would be matched against a different skill's, so nothing would say anything true about the run.
 */
export class SkillMismatchError extends StagecraftError {
  /**
   * `own`: the folder is the run's own (no folder was given: the run was made from it, and it has
   * since been given another skill's skill.md) — the way out is the version the run recorded (`hash`,
   * null when none is on record any more) or another of its skill's versions, not leaving a folder
   * out; `how`: that said in the caller's words, e.g. the CLI's flags
   */
  constructor(runId: string, runSkill: string, folder: string, folderSkill: string, own?: { hash: string | null; how?: string }) {
    const names = `${JSON.stringify(folderSkill)} (its skill.md's name): a run is replayed or forked with a version of its own skill. `;
    const skill = JSON.stringify(runSkill);
    const wayOut = own?.hash
      ? `Use the version the run recorded (${own.hash.slice(0, 12)}), or give the folder back a skill.md of ${skill}.`
      : `Use one of ${skill}'s saved versions, or give the folder back a skill.md of ${skill}.`;
    super(
      'skill_mismatch',
      own
        ? `Run ${runId} is of skill ${skill}, and its folder ${folder} now holds skill ${names}` + (own.how ?? wayOut)
        : `Run ${runId} is of skill ${skill}, and ${folder} holds skill ${names}` +
            `Pass a folder of ${skill} (\`stagecraft pull ${runSkill} DIR\` writes one), or leave --skill out to use its latest version.`,
      {
        httpStatus: 422,
        details: { runId, skill: runSkill, folder, folderSkill, ...(own ? { ownFolder: true, ...(own.hash ? { recordedVersion: own.hash } : {}) } : {}) },
      },
    );
  }
}

/** files of the folder an UnsavedChangesError names; the rest are counted (as pull's list of a folder's other files) */
const MAX_UNSAVED_SHOWN = 20;

/**
 * `stagecraft pull` into a folder where files at the version's paths hold text in no saved version of
 * the skill (edited, not pushed): written over, it would be lost, so nothing is written. `folder`: as
 * the caller can paste it; `files`: those paths, sorted, every one in the details.
 */
export class UnsavedChangesError extends StagecraftError {
  readonly files: string[];
  constructor(skill: string, folder: string, files: string[]) {
    const shown = files.length > MAX_UNSAVED_SHOWN ? [...files.slice(0, MAX_UNSAVED_SHOWN), `${counted(files.length - MAX_UNSAVED_SHOWN)} more`] : files;
    const one = files.length === 1;
    super(
      'unsaved_changes',
      `${shown.join(', ')} in ${folder} ${one ? 'holds' : 'hold'} changes in no saved version of ${skill}: the pull would replace ${one ? 'it' : 'them'}, so it wrote nothing.\n` +
        `\`stagecraft push ${folder}\` keeps them as a version first; or pull again with --force to replace them.`,
      { httpStatus: 409, details: { skill, folder, files } },
    );
    this.files = files;
  }
}

export class BundleInvalidError extends StagecraftError {
  readonly problems: { code: string; path: string; message: string }[];
  readonly doing: 'saved' | 'run';
  /** `doing`: what the bundle was given for — saved (push, the app) or run (`stagecraft run DIR`); `rest`: where the problems past the first are listed (the CLI names `stagecraft validate`) */
  constructor(problems: { code: string; path: string; message: string }[], doing: 'saved' | 'run' = 'saved', rest?: string) {
    super(
      'bundle_invalid',
      `The bundle cannot be ${doing}: ${problems[0]?.message ?? 'it is invalid'}${problems.length > 1 ? ` (and ${plural(problems.length - 1, 'more problem')})` : ''}` +
        (rest && problems.length > 1 ? `\n${rest}` : ''),
      { httpStatus: 422, details: { problems } },
    );
    this.problems = problems;
    this.doing = doing;
  }
}

/**
 * A run's input that breaks the entry phase's input contract; `errors` locates each by JSON pointer.
 * `located`: lines that place them in the text the input was read from (`FILE:line:col: …`), when the
 * caller has it (`stagecraft run --input FILE`), one per line after the sentence.
 */
export class InputInvalidError extends StagecraftError {
  readonly phase: string;
  readonly errors: { pointer: string; message: string }[];
  constructor(phase: string, errors: { pointer: string; message: string }[], located: string[] = []) {
    super(
      'input_invalid',
      `The input does not satisfy the input contract of the entry phase ${phase}: ${errors
        .slice(0, 5)
        .map((e) => `${e.pointer || '(the input)'} ${e.message}`)
        .join('; ')}${errors.length > 5 ? ` (and ${errors.length - 5} more)` : ''}. Fix the input, or the phase's input_schema.` +
        located.map((l) => `\n${l}`).join(''),
      { httpStatus: 422, details: { phase, errors } },
    );
    this.phase = phase;
    this.errors = errors;
  }
}
