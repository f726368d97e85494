/**
 * The frontmatter as TypeScript sees it once the structural pass accepted it,
 * and small defensive readers for the semantic checks, which also run on a
 * frontmatter the schema rejected (so an author sees every problem at once)
 * and so must never assume a shape.
 *
 * Owns: the `Frontmatter` type (mirrors schema.ts) and the graph facts every
 * check needs (phase names, successors, terminal phases, reachability).
 * Does not: report anything.
 */
import type { JsonObject, JsonSchema } from '../kernel/json';
import { isJsonObject } from '../kernel/json';
import type { OnError } from '../kernel/plan';

export type SchemaOrRef = string | JsonSchema;

export type StepSource = {
  type: string;
  on_error?: OnError;
  into?: string;
  schema?: SchemaOrRef;
  path?: string;
  op?: string;
  args?: JsonObject;
  over?: string;
  steps?: StepSource[];
  plan?: string;
  rules?: string[];
  module?: string;
  function?: string;
  timeout_ms?: number;
  pure?: boolean;
};

export type PhaseSource = {
  input_schema?: SchemaOrRef;
  output_schema?: SchemaOrRef;
  tools?: string[];
  max_rounds?: number;
  preprocessor?: { steps: StepSource[] };
};

export type CapabilitySource = {
  name: string;
  stage: string;
  uses: string;
  effects?: string[];
  with?: JsonObject;
};

export type Frontmatter = {
  name: string;
  description?: string;
  entry: string;
  graph: Record<string, string[] | null>;
  final_output?: SchemaOrRef;
  output_schema?: SchemaOrRef;
  artifacts?: Record<string, JsonSchema>;
  phases?: Record<string, PhaseSource | null>;
  capabilities?: CapabilitySource[];
  permissions?: { ops?: string[]; effects?: string[] };
  postprocessor?: { output_schema: SchemaOrRef; steps: StepSource[] };
};

// ------------------------------------------------------------ defensive readers
export const obj = (v: unknown): Record<string, unknown> => (isJsonObject(v) ? (v as Record<string, unknown>) : {});
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const strings = (v: unknown): string[] => arr(v).filter((x): x is string => typeof x === 'string');
export const has = (o: Record<string, unknown>, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** The phase graph as written, read defensively. */
export type GraphFacts = {
  /** every phase: graph keys, then successors not already keys, in first-mention order */
  phases: string[];
  successors: Map<string, string[]>;
  terminal: Set<string>;
  entry: string | undefined;
  /** phases reachable from entry, breadth-first (entry first); empty when entry is not a phase */
  order: string[];
};

export function graphFacts(fm: Record<string, unknown>): GraphFacts {
  const graph = obj(fm.graph);
  const phases: string[] = [];
  const successors = new Map<string, string[]>();
  const add = (p: string) => {
    if (!successors.has(p)) {
      successors.set(p, []);
      phases.push(p);
    }
  };
  for (const key of Object.keys(graph)) add(key);
  for (const key of Object.keys(graph)) {
    const next = strings(graph[key]);
    successors.set(key, [...new Set(next)]);
    for (const s of next) add(s);
  }
  const terminal = new Set(phases.filter((p) => (successors.get(p) ?? []).length === 0));
  const entry = str(fm.entry);
  const order: string[] = [];
  if (entry !== undefined && successors.has(entry)) {
    const seen = new Set([entry]);
    const queue = [entry];
    while (queue.length) {
      const p = queue.shift() as string;
      order.push(p);
      for (const s of successors.get(p) ?? []) {
        if (!seen.has(s)) {
          seen.add(s);
          queue.push(s);
        }
      }
    }
  }
  return { phases, successors, terminal, entry, order };
}

/** Deep equality of JSON values, key order ignored (schemas compared by meaning of their text). Plain loops: the studio compares its whole diagram with it on every keystroke. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (isJsonObject(a) && isJsonObject(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    for (const k of ka) if (!has(b, k) || !jsonEqual(a[k], b[k])) return false;
    return true;
  }
  return false;
}
