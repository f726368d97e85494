/**
 * The op registry: the named tools a model and processor steps may dispatch,
 * with their declared effects. A skill cannot define ops; it can only permit
 * them (`permissions.ops`).
 *
 * Owns: op names, their effects, argument schemas, and two flags the rest of
 * the system relies on — `worldPurity` (re-executed on resume: it reads the
 * world, and the world may have changed) and `modelOnly` (never allowed in a
 * processor). Does not: execute ops (ops/execute.ts) or check permissions
 * (ops/gate.ts).
 */
import type { JsonSchema } from '../json';

export type OpDef = {
  name: string;
  description: string;
  /** effects the op needs granted in permissions.effects */
  effects: string[];
  /** reads the world: re-executed on resume instead of memoized */
  worldPurity: boolean;
  /** only the model may call it (ask_user) */
  modelOnly: boolean;
  /** off unless explicitly permitted (http/get) */
  offByDefault: boolean;
  args: JsonSchema;
};

const str = { type: 'string' } as const;

export const OPS: Record<string, OpDef> = {
  'file/read': {
    name: 'file/read',
    description: "Read a text file of the run's workspace, else of the skill's own files (a relative path; at most 1,000,000 bytes).",
    effects: ['fs.read'],
    worldPurity: true,
    modelOnly: false,
    offByDefault: false,
    args: { type: 'object', properties: { path: str }, required: ['path'], additionalProperties: false },
  },
  'file/write': {
    name: 'file/write',
    description: "Write a text file in the run's workspace (a relative path; its folders are made).",
    effects: ['fs.write'],
    worldPurity: false,
    modelOnly: false,
    offByDefault: false,
    args: {
      type: 'object',
      properties: { path: str, content: str },
      required: ['path', 'content'],
      additionalProperties: false,
    },
  },
  'workspace/read': {
    name: 'workspace/read',
    description: "Read an artifact from the run's workspace.",
    effects: ['workspace.read'],
    worldPurity: false,
    modelOnly: false,
    offByDefault: false,
    args: { type: 'object', properties: { path: str }, required: ['path'], additionalProperties: false },
  },
  'workspace/write': {
    name: 'workspace/write',
    description: "Write a JSON or text artifact to the run's workspace.",
    effects: ['workspace.write'],
    worldPurity: false,
    modelOnly: false,
    offByDefault: false,
    args: { type: 'object', properties: { path: str, content: {} }, required: ['path', 'content'], additionalProperties: false },
  },
  'http/get': {
    name: 'http/get',
    description: 'GET a URL (off by default; needs the net effect).',
    effects: ['net'],
    worldPurity: true,
    modelOnly: false,
    offByDefault: true,
    args: { type: 'object', properties: { url: str }, required: ['url'], additionalProperties: false },
  },
  run_skill: {
    name: 'run_skill',
    description: 'Run another skill bundle of the same workspace with an input; returns its caller artifact.',
    effects: [],
    worldPurity: false,
    modelOnly: false,
    offByDefault: false,
    args: {
      type: 'object',
      properties: { skill: str, input: { type: 'object' } },
      required: ['skill'],
      additionalProperties: false,
    },
  },
  ask_user: {
    name: 'ask_user',
    description: 'Ask the user a question (model only; never from a processor).',
    effects: ['user.ask'],
    worldPurity: false,
    modelOnly: true,
    offByDefault: false,
    args: { type: 'object', properties: { question: str }, required: ['question'], additionalProperties: false },
  },
};

export const OP_NAMES = Object.keys(OPS);

export function getOp(name: string): OpDef | undefined {
  return Object.prototype.hasOwnProperty.call(OPS, name) ? OPS[name] : undefined;
}
