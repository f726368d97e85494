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
/**
 * other tabs' drafts, put aside when this one wrote over them (a list, oldest put aside first; one draft
 * alone as an older page stored it): offered one at a time once the first one is saved or thrown away
 */
const asideKey = (skill: string) => `stagecraft:draft:${skill}:other-tab`;

const mine = (d: Draft, owner: DraftOwner | undefined) => !owner || d.tab === undefined || d.tab === owner.tab || owner.took.has(d.tab);
/** a draft put aside that this page wrote (its newer text is the current draft, or saved) */
const ownAside = (d: Draft, owner: DraftOwner) => d.tab !== undefined && (d.tab === owner.tab || owner.took.has(d.tab));

/** a stored draft as a page wrote it: an object with its files (anything else, e.g. a list a newer page's aside key held, is none) */
function isDraft(v: unknown): v is Draft {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const files = (v as { files?: unknown }).files;
  return typeof files === 'object' && files !== null && !Array.isArray(files);
}

function read(k: string): Draft | null {
  try {
    const raw = localStorage.getItem(k);
    const v = raw ? (JSON.parse(raw) as unknown) : null;
    return isDraft(v) ? v : null;
  } catch {
    return null;
  }
}

function readAside(skill: string): Draft[] {
  try {
    const raw = localStorage.getItem(asideKey(skill));
    const v = raw ? (JSON.parse(raw) as unknown) : [];
    return (Array.isArray(v) ? v : [v]).filter(isDraft);
  } catch {
    return [];
  }
}

/** other tabs' drafts kept aside at most (the newest): each is a whole bundle, and localStorage is small */
export const MAX_ASIDE_DRAFTS = 10;

/**
 * One draft alone is stored as an older page stored it (an object, not a list): a tab still on the older
 * page reads it as before, and would carry a list into the main draft key. Drafts with the same files
 * as a newer one kept are dropped, and only the newest MAX_ASIDE_DRAFTS are kept.
 */
function writeAside(skill: string, drafts: Draft[]): void {
  const kept = drafts.filter((d, i) => !drafts.slice(i + 1).some((later) => sameFiles(later.files, d.files))).slice(-MAX_ASIDE_DRAFTS);
  if (kept.length) localStorage.setItem(asideKey(skill), JSON.stringify(kept.length === 1 ? kept[0] : kept));
  else localStorage.removeItem(asideKey(skill));
}

export function readDraft(skill: string): Draft | null {
  return read(key(skill));
}

/** another tab's unsaved draft of this skill, kept aside: the next one offered (null when there is none) */
export function readAsideDraft(skill: string): Draft | null {
  return readAside(skill)[0] ?? null;
}

/** how many other tabs' drafts are kept aside */
export function countAsideDrafts(skill: string): number {
  return readAside(skill).length;
}

/**
 * false when the browser would not keep it (storage full or disabled): then the page warns before leaving.
 * With `owner`, another tab's different draft is put aside rather than written over (each tab's newest
 * one: three tabs keep three), and this page's own older one put aside is dropped.
 */
export function writeDraft(skill: string, draft: Draft, owner?: DraftOwner): boolean {
  try {
    const stored = readDraft(skill);
    if (owner) {
      const aside = readAside(skill).filter((d) => !ownAside(d, owner) && !(stored && d.tab !== undefined && d.tab === stored.tab));
      if (stored && !mine(stored, owner) && !sameFiles(stored.files, draft.files)) aside.push(stored);
      writeAside(skill, aside);
    } else if (stored && !mine(stored, owner) && !sameFiles(stored.files, draft.files)) writeAside(skill, [stored]);
    localStorage.setItem(key(skill), JSON.stringify(owner ? { ...draft, tab: owner.tab } : draft));
    return true;
  } catch {
    return false;
  }
}

/**
 * With `owner`, only its own draft is cleared (another tab's stays), and the first draft put aside takes its place.
 * Its own draft put aside by another tab is cleared too: saved or thrown away now, it must not come back
 * as "unsaved" when the other tab is done.
 */
export function clearDraft(skill: string, owner?: DraftOwner): void {
  try {
    const aside = owner ? readAside(skill).filter((d) => !ownAside(d, owner)) : readAside(skill);
    const stored = readDraft(skill);
    if (stored && !mine(stored, owner)) {
      writeAside(skill, aside);
      return;
    }
    const [next, ...rest] = aside;
    if (next) localStorage.setItem(key(skill), JSON.stringify(next));
    else localStorage.removeItem(key(skill));
    writeAside(skill, rest);
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
