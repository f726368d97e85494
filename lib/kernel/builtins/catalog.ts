/**
 * The catalog of builtin capabilities (`uses: builtin:<name>`): which rung each
 * may sit on, which effects it needs, and its options' schema. The validator
 * and the editor schema read this; the handlers live beside it.
 *
 * Owns: builtin metadata. Does not: implement the handlers (see the files
 * next to it) — so lib/skill can read the catalog without loading them.
 */
import type { JsonSchema } from '../json';
import type { Rung } from '../plan';

export type BuiltinDef = {
  name: string;
  description: string;
  rungs: Rung[];
  /** effects the handler's contribution needs */
  effects: string[];
  with: JsonSchema;
};

export const BUILTINS: Record<string, BuiltinDef> = {
  tool_result_budget: {
    name: 'tool_result_budget',
    description:
      'Cuts tool results longer than max_chars in the transcript the next round sees; the full text is kept as a workspace artifact.',
    rungs: ['post-tool'],
    effects: ['transcript.write'],
    with: {
      type: 'object',
      properties: { max_chars: { type: 'integer', minimum: 16, default: 4000 } },
      additionalProperties: false,
    },
  },
  unverified_numbers: {
    name: 'unverified_numbers',
    description:
      'Flags numbers in the finish artifact that appear in no tool outcome of the run (possible fabrication).',
    rungs: ['post-model'],
    effects: [],
    with: {
      type: 'object',
      properties: {
        severity: { enum: ['info', 'warning', 'error'], default: 'warning' },
        ignore: { type: 'array', items: { type: 'number' } },
      },
      additionalProperties: false,
    },
  },
  pii_redact: {
    name: 'pii_redact',
    description: 'Redacts e-mail addresses, phone numbers and card-like numbers in the finish artifact.',
    rungs: ['finalize'],
    effects: ['artifact.write'],
    with: {
      type: 'object',
      properties: {
        kinds: { type: 'array', items: { enum: ['email', 'phone', 'card'] } },
        replacement: { type: 'string', default: '[redacted]' },
      },
      additionalProperties: false,
    },
  },
};

/** effect a contribution needs, per rung (kernel.md) */
export const RUNG_EFFECT: Record<Rung, string | null> = {
  'prompt-assembly': 'prompt.write',
  'post-model': null,
  'pre-tool': 'tools.gate',
  'post-tool': 'transcript.write',
  finalize: 'artifact.write',
};

/** every effect name Stagecraft knows (for "did you mean" and the editor schema) */
export const KNOWN_EFFECTS = [
  'prompt.write',
  'tools.gate',
  'transcript.write',
  'artifact.write',
  'fs.read',
  'fs.write',
  'workspace.read',
  'workspace.write',
  'net',
  'user.ask',
];
