/**
 * Paths into the current value (`items[0].id`, `post.title`) and `${…}`
 * argument templates, as processor steps use them.
 *
 * A template that is exactly `${path}` yields the value itself (any JSON
 * type); a template embedded in text yields text. A path that does not exist
 * is an error naming the path, never a silent `undefined`.
 *
 * Owns: path parsing and templating. Does not: know about steps.
 */
import { StepFailedError } from './errors';
import type { Json } from './json';
import { isJsonObject } from './json';

export function parsePath(p: string): (string | number)[] {
  const out: (string | number)[] = [];
  const re = /([^.[\]]+)|\[(\d+)\]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(p))) out.push(m[2] !== undefined ? Number(m[2]) : m[1]);
  return out;
}

export function getPath(value: Json, p: string): Json | undefined {
  let cur: Json | undefined = value;
  for (const seg of parsePath(p)) {
    if (cur === undefined || cur === null) return undefined;
    if (typeof seg === 'number') cur = Array.isArray(cur) ? cur[seg] : undefined;
    // own keys only: `constructor`, `__proto__` or `toString` name no value of a JSON object
    else cur = isJsonObject(cur) && Object.hasOwn(cur, seg) ? cur[seg] : undefined;
  }
  return cur;
}

export function requirePath(value: Json, p: string, what: string): Json {
  const v = getPath(value, p);
  if (v === undefined) {
    const keys = isJsonObject(value) ? Object.keys(value).join(', ') : typeof value;
    throw new StepFailedError('path_not_found', `${what}: "${p}" is not in the current value (it has: ${keys || 'nothing'})`, { path: p });
  }
  return v;
}

const WHOLE = /^\$\{([^}]+)\}$/;
const PART = /\$\{([^}]+)\}/g;

export function renderTemplate(tpl: Json, value: Json, what: string): Json {
  if (typeof tpl === 'string') {
    const whole = WHOLE.exec(tpl);
    if (whole) return requirePath(value, whole[1].trim(), what);
    return tpl.replace(PART, (_, p: string) => {
      const v = requirePath(value, p.trim(), what);
      return typeof v === 'string' ? v : JSON.stringify(v);
    });
  }
  if (Array.isArray(tpl)) return tpl.map((t) => renderTemplate(t, value, what));
  if (isJsonObject(tpl)) {
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(tpl)) out[k] = renderTemplate(v, value, what);
    return out;
  }
  return tpl;
}
