// A studio page the browser brings back from its own cache — Back from the run a Run opened, after
// saving on the way — is drawn from what the server sent when it first opened: the version before
// the save, shown as the latest, without the text just saved. Each tab notes the newest version it
// made itself (a save, a restore); a page that opens on an older one than that is out of date and
// is loaded afresh (once: the note is dropped first).
const key = (skill: string) => `stagecraft:made:${skill}`;

type Made = { hash: string; at: number };

/** this tab made `hash` (saved at `at`, the server's clock) the skill's latest version */
export function noteMade(skill: string, hash: string, at: number): void {
  try {
    sessionStorage.setItem(key(skill), JSON.stringify({ hash, at } satisfies Made));
  } catch {
    // not kept: a page brought back stays as it was drawn
  }
}

/**
 * Whether a page opened on version `hash` (saved at `at`) is older than one this tab made since:
 * then the note is dropped (the page is loaded afresh once, whatever the server says then).
 */
export function isOutOfDate(skill: string, hash: string | null, at: number | null): boolean {
  try {
    const raw = sessionStorage.getItem(key(skill));
    const made = raw ? (JSON.parse(raw) as Made) : null;
    if (!made || made.hash === hash || (at !== null && made.at <= at)) return false;
    sessionStorage.removeItem(key(skill));
    return true;
  } catch {
    return false;
  }
}
