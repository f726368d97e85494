// Unsaved work is never lost to a navigation or a reload: the working copy of
// a skill's files is kept in localStorage as a draft (with the version it was
// based on) until it is saved, and offered back when the page opens again.
import type { Files } from '@/lib/views';
import { readStored, writeStored } from '@/components/common/use-stored';

export type Draft = { files: Files; base: string | null; at: number };

const key = (skill: string) => `stagecraft:draft:${skill}`;

export function readDraft(skill: string): Draft | null {
  try {
    const raw = localStorage.getItem(key(skill));
    return raw ? (JSON.parse(raw) as Draft) : null;
  } catch {
    return null;
  }
}

/** false when the browser would not keep it (storage full or disabled): then the page warns before leaving */
export function writeDraft(skill: string, draft: Draft): boolean {
  try {
    localStorage.setItem(key(skill), JSON.stringify(draft));
    return true;
  } catch {
    return false;
  }
}

export function clearDraft(skill: string): void {
  try {
    localStorage.removeItem(key(skill));
  } catch {
    // nothing kept, nothing to clear
  }
}

export function sameFiles(a: Files, b: Files): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && a[k] === b[k]);
}

export const inputsKey = (skill: string) => `stagecraft:inputs:${skill}`;
const MAX_INPUTS = 10;

/** past run inputs as stored (the text of a JSON list), newest first */
export function parseInputs(raw: string | null): string[] {
  try {
    const v = raw ? (JSON.parse(raw) as unknown) : [];
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export function rememberInput(skill: string, text: string): void {
  const canonical = (() => {
    try {
      return JSON.stringify(JSON.parse(text));
    } catch {
      return text;
    }
  })();
  const kept = parseInputs(readStored(inputsKey(skill))).filter((t) => {
    try {
      return JSON.stringify(JSON.parse(t)) !== canonical;
    } catch {
      return t !== text;
    }
  });
  // a full storage only forgets the history
  writeStored(inputsKey(skill), JSON.stringify([text, ...kept].slice(0, MAX_INPUTS)));
}
