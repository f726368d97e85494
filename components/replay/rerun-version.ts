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
