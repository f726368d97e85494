// Unsaved work is never lost to a navigation or a reload: the working copy of
// a skill's files is kept in localStorage as a draft (with the version it was
// based on) until it is saved, and offered back when the page opens again.
import type { Files } from '@/lib/views';
import { readStored, writeStored } from '@/components/common/use-stored';

/** `tab`: the page that wrote it (one id per studio page opened), so two tabs on one skill keep both drafts */
export type Draft = { files: Files; base: string | null; at: number; tab?: string };

/**
 * The drafts a page may write over or clear: its own and the one it took back when it opened
 * (a reload is a new page that carries on the old one's draft). Any other is another tab's.
 */
export type DraftOwner = { tab: string; took: Set<string> };

export function newDraftOwner(): DraftOwner {
  return { tab: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`, took: new Set() };
}

const key = (skill: string) => `stagecraft:draft:${skill}`;
/** another tab's draft, put aside when this one wrote over it: offered once the first one is saved or thrown away */
const asideKey = (skill: string) => `stagecraft:draft:${skill}:other-tab`;

const mine = (d: Draft, owner: DraftOwner | undefined) => !owner || d.tab === undefined || d.tab === owner.tab || owner.took.has(d.tab);

function read(k: string): Draft | null {
  try {
    const raw = localStorage.getItem(k);
    return raw ? (JSON.parse(raw) as Draft) : null;
  } catch {
    return null;
  }
}

export function readDraft(skill: string): Draft | null {
  return read(key(skill));
}

/** another tab's unsaved draft of this skill, kept aside (null when there is none) */
export function readAsideDraft(skill: string): Draft | null {
  return read(asideKey(skill));
}

/**
 * false when the browser would not keep it (storage full or disabled): then the page warns before leaving.
 * With `owner`, another tab's different draft is put aside rather than written over.
 */
export function writeDraft(skill: string, draft: Draft, owner?: DraftOwner): boolean {
  try {
    const stored = readDraft(skill);
    if (stored && !mine(stored, owner) && !sameFiles(stored.files, draft.files)) localStorage.setItem(asideKey(skill), JSON.stringify(stored));
    localStorage.setItem(key(skill), JSON.stringify(owner ? { ...draft, tab: owner.tab } : draft));
    return true;
  } catch {
    return false;
  }
}

/**
 * With `owner`, only its own draft is cleared (another tab's stays), and a draft put aside takes its place.
 * Its own draft put aside by another tab is cleared too: saved or thrown away now, it must not come back
 * as "unsaved" when the other tab is done.
 */
export function clearDraft(skill: string, owner?: DraftOwner): void {
  try {
    const ownAside = read(asideKey(skill));
    if (owner && ownAside?.tab !== undefined && (ownAside.tab === owner.tab || owner.took.has(ownAside.tab))) localStorage.removeItem(asideKey(skill));
    const stored = readDraft(skill);
    if (stored && !mine(stored, owner)) return;
    const aside = localStorage.getItem(asideKey(skill));
    if (aside) {
      localStorage.setItem(key(skill), aside);
      localStorage.removeItem(asideKey(skill));
    } else localStorage.removeItem(key(skill));
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
