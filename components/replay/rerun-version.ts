// What `Rerun from here` says of the version it takes: the skill's latest, which is the run's own
// version again when no newer one was saved since.

export type RerunVersionNote = { text: string; isSame: boolean };

const short = (hash: string) => hash.slice(0, 8);

/** `ran`: the run's version; `latest`: the skill's (null while unknown, or when it has none): no note then */
export function rerunVersionNote(ran: string | null, latest: string | null): RerunVersionNote | null {
  if (!latest) return null;
  if (ran && (latest === ran || latest.startsWith(ran) || ran.startsWith(latest))) {
    return { text: `No newer version of the skill is saved: this reruns the same version (${short(latest)}).`, isSame: true };
  }
  return { text: `Reruns with the latest version, ${short(latest)}${ran ? ` (this run ran ${short(ran)})` : ''}.`, isSame: false };
}

/**
 * `It ran version X; that run ran Y.` when a replay or fork ran another version than its parent: a rerun
 * after a fix read as the same skill run again ("This run is a fork of …, from __post__/1."). A line of its
 * own, under the lineage line, which stays word for word (a replay's verdict ends it). Empty else.
 */
export function otherVersionWords(version: string | null, parentVersion: string | null | undefined): string {
  if (!version || !parentVersion || version === parentVersion) return '';
  return `It ran version ${version.slice(0, 8)}; that run ran ${parentVersion.slice(0, 8)}.`;
}
