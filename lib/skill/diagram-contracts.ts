/**
 * Contracts as the diagram shows them: a schema-or-name site of skill.md read
 * as a `ContractRef` (an artifact by name, an inline schema, anything, or
 * nothing declared) with a one-line summary such as `object: title, body`.
 *
 * Owns: the summary wording. Does not: check schemas (check-schemas.ts) —
 * a reference to no artifact is summarised as such, never reported.
 */
import { isJsonObject } from '../kernel/json';
import { has, strings } from './frontmatter';

export type ContractRef =
  /** a reference to an entry of `artifacts` (summary `no such artifact` when there is none) */
  | { kind: 'artifact'; name: string; summary: string }
  | { kind: 'inline'; summary: string }
  /** nothing declared, and nothing needed: any JSON object passes */
  | { kind: 'any' }
  /** nothing declared where a contract is needed (a skill without an LLM contract) */
  | { kind: 'none' };

const MAX_NAMES = 5;

function listNames(names: string[]): string {
  return names.length > MAX_NAMES ? `${names.slice(0, MAX_NAMES).join(', ')}, …` : names.join(', ');
}

/** `object: title, body` (required properties, else every property with `?`), `string`, `any object`, … */
export function summarizeSchema(schema: unknown): string {
  if (schema === true) return 'anything';
  if (schema === false) return 'nothing';
  if (!isJsonObject(schema)) return 'not a schema';
  if (Array.isArray(schema.enum)) return `one of ${listNames(schema.enum.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))))}`;
  if (has(schema, 'const')) return `exactly ${JSON.stringify(schema.const)}`;
  const types = Array.isArray(schema.type) ? schema.type.map(String) : typeof schema.type === 'string' ? [schema.type] : [];
  const props = isJsonObject(schema.properties) ? Object.keys(schema.properties) : [];
  if (types.includes('object') || (types.length === 0 && (props.length > 0 || has(schema, 'required')))) {
    const required = strings(schema.required);
    const names = required.length ? required : props.map((p) => `${p}?`);
    const described = names.length ? `object: ${listNames(names)}` : 'any object';
    const others = types.filter((t) => t !== 'object');
    return others.length ? `${described} | ${others.join(' | ')}` : described;
  }
  if (types.length === 1 && types[0] === 'array') {
    const items = schema.items;
    return isJsonObject(items) && typeof items.type === 'string' ? `array of ${items.type}` : 'array';
  }
  if (types.length) return types.join(' | ');
  const branches = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (branches) return `one of ${branches.length} schemas`;
  if (typeof schema.$ref === 'string') return `$ref ${schema.$ref}`;
  return 'anything';
}

/** A schema-or-name site's value as a contract. */
export function contractRef(value: unknown, artifacts: Record<string, unknown>): ContractRef {
  if (typeof value === 'string') {
    return { kind: 'artifact', name: value, summary: has(artifacts, value) ? summarizeSchema(artifacts[value]) : 'no such artifact' };
  }
  return { kind: 'inline', summary: summarizeSchema(value) };
}
