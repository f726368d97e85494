// "Back to the source": the studio's URL that opens a skill at a version's text with a line
// revealed (`/skills/<name>?version=<hash>&line=<n>&file=<path>`), written by the run page and
// read by the skill page, with a located sentence for each part that is not right.
import { plural } from '@/lib/kernel/plural';

export type SourceLink = { version: string | null; line: number | null; file: string | null; problems: string[] };

type Search = URLSearchParams | Record<string, string | string[] | undefined>;

const first = (sp: Search, k: string): string | undefined => {
  if (sp instanceof URLSearchParams) return sp.get(k) ?? undefined;
  const v = sp[k];
  return Array.isArray(v) ? v[0] : v;
};

/** a version is named by its hash or a prefix of at least this many hex digits (the store's MIN_HASH_PREFIX) */
const VERSION = /^[0-9a-f]{6,64}$/;

/** the most a line number can be (a skill file is far shorter) */
const MAX_LINE = 1_000_000;

export function parseSourceLink(sp: Search): SourceLink {
  const problems: string[] = [];
  const version = first(sp, 'version')?.trim() || null;
  if (version !== null && !VERSION.test(version)) {
    problems.push(`?version=${version.slice(0, 70)}: a version is its hash (hex, at least 6 characters). Showing the latest version.`);
  }
  const rawLine = first(sp, 'line')?.trim();
  let line: number | null = null;
  if (rawLine) {
    if (/^\d{1,7}$/.test(rawLine) && Number(rawLine) >= 1 && Number(rawLine) <= MAX_LINE) line = Number(rawLine);
    else problems.push(`?line=${rawLine.slice(0, 40)}: a line is a whole number from 1. No line is revealed.`);
  }
  const file = first(sp, 'file')?.trim() || null;
  return { version: version !== null && VERSION.test(version) ? version : null, line, file, problems };
}

/**
 * What the studio reveals of a parsed link in a version's `files`: the file (skill.md when the link
 * names none, or one the bundle lacks) and the line — none past the file's last line (as the editor
 * counts them), said rather than the last line marked in its place. `problems`: a sentence for each.
 */
export function revealIn(link: Pick<SourceLink, 'line' | 'file'>, files: Record<string, string>): { reveal: { file: string; line: number } | null; problems: string[] } {
  const problems: string[] = [];
  const known = link.file !== null && Object.hasOwn(files, link.file);
  if (link.file && !known) problems.push(`?file=${link.file}: the bundle has no such file; showing skill.md.`);
  if (link.line === null) return { reveal: null, problems };
  const file = known ? link.file! : 'skill.md';
  const lines = (files[file] ?? '').split('\n').length;
  if (link.line > lines) {
    problems.push(`?line=${link.line}: ${file} has ${plural(lines, 'line')}. No line is revealed.`);
    return { reveal: null, problems };
  }
  return { reveal: { file, line: link.line }, problems };
}

/** the studio at a version's line (and file, when it is not skill.md) */
export function sourceHref(skill: string, at: { version?: string | null; line?: number | null; file?: string | null }): string {
  const sp = new URLSearchParams();
  if (at.version) sp.set('version', at.version);
  if (at.file && at.file !== 'skill.md') sp.set('file', at.file);
  if (at.line) sp.set('line', String(at.line));
  const s = sp.toString();
  return `/skills/${encodeURIComponent(skill)}${s ? `?${s}` : ''}`;
}
