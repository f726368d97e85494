/**
 * `stagecraft push <bundle|skill.md> [--name NAME]`, `stagecraft pull NAME [DIR] [--version HASH] [--force]`: skills between folders
 * (and git) and the store; `stagecraft versions SKILL`: the hashes --version takes, without the app.
 */
import path from 'node:path';
import { formatDiagnostic } from '../lib/kernel/errors';
import { skillVersions } from '../lib/server/skills/list-versions';
import { pullSkill, writePulled } from '../lib/server/skills/pull-skill';
import { pushSkill, readPush } from '../lib/server/skills/push-skill';
import { parse } from './args';
import { counted, plural } from '../lib/kernel/plural';
import { shellWord } from '../lib/kernel/shell-word';
import { columns } from './print';
import type { Io } from './main';
import { withHostOrApp } from './store';
import { versionArg } from './version-arg';
import { skillFileOf } from './validate';

const short = (hash: string) => hash.slice(0, 12);

export async function pushCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, { json: { type: 'boolean' }, name: { type: 'string' } }, { min: 1, max: 1, names: 'one bundle or skill.md' });
  // a skill.md stands for its folder, as for run and validate (`push x/skill.md` was refused); said as they say it
  const { bundleDir } = skillFileOf(positionals[0]);
  // the folder as the user named it, for the messages and the files' names: a relative path stays relative
  const dir = bundleDir === path.resolve(positionals[0]) ? positionals[0] : path.dirname(positionals[0]);
  const r = await withHostOrApp(
    io,
    (host) => pushSkill(host, dir, { as: values.name }),
    async (app) => {
      // read and checked here, as on the store; saved by the app as `stagecraft push` saves it
      const { name, files } = readPush(dir, { as: values.name });
      return { skill: name, ...(await app.push(name, files)) };
    },
  );
  if (values.json) {
    io.out(JSON.stringify(r));
    return 0;
  }
  for (const d of r.validation.diagnostics) io.err(formatDiagnostic({ ...d, file: path.join(dir, d.file) }));
  io.out(
    `${r.skill}: ${r.isNew ? 'saved as version' : 'unchanged, version'} ${short(r.version.hash)} (${plural(r.version.fileCount, 'file')})` +
      (r.validation.errors ? ` — skill.md has ${plural(r.validation.errors, 'error')}: runs of it are refused until ${r.validation.errors === 1 ? 'it is' : 'they are'} fixed` : ''),
  );
  return 0;
}

/**
 * The folder pulled into, as the user can cd to it: as they gave it (an absolute path stays absolute,
 * not `../../root/x`), else — the default ./NAME — relative to here.
 */
function shownDir(given: string | undefined, dir: string, cwd: string): string {
  if (given !== undefined) return given || '.';
  const rel = path.relative(cwd, dir);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? `.${path.sep}${rel}` : dir;
}

/** files of a pulled-into folder named in the warning; the rest are counted */
const MAX_EXTRA_SHOWN = 20;

export async function pullCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(
    argv,
    { json: { type: 'boolean' }, version: { type: 'string' }, force: { type: 'boolean' } },
    { min: 1, max: 2, names: 'a skill name and, optionally, a folder' },
  );
  const version = versionArg(values.version);
  const [name, into] = positionals;
  const cwd = process.cwd();
  // a file the pull would replace whose text no saved version holds is named so, the folder as it is pasted
  const opts = { dir: into, cwd, force: values.force, shownAs: shellWord(shownDir(into, path.resolve(cwd, into ?? name), cwd)) };
  // through the app that holds the store, the version (and any other the folder is checked against) is the app's answer, written out here all the same
  const r = await withHostOrApp(
    io,
    (host) => pullSkill(host, name, { ...opts, version }),
    async (app) =>
      writePulled(name, await app.version(name, version), opts, {
        hashes: async () => (await app.versions(name)).versions.map((v) => v.hash),
        files: async (hash) => (await app.version(name, hash)).files,
      }),
  );
  if (values.json) {
    io.out(JSON.stringify(r));
    return 0;
  }
  // quoted as a shell word: `cd` and `push` take it as it is pasted
  const where = shellWord(shownDir(into, r.dir, cwd));
  io.out(`${r.version.skill}: wrote version ${short(r.version.hash)} (${plural(r.written.length, 'file')}) to ${where}`);
  const shown = r.extra.length > MAX_EXTRA_SHOWN ? [...r.extra.slice(0, MAX_EXTRA_SHOWN), `${counted(r.extra.length - MAX_EXTRA_SHOWN)} more`] : r.extra;
  if (r.isExtraCut) shown.push('more not listed');
  if (shown.length) io.err(`${where} also holds ${shown.join(', ')}, not in this version (left as they are; a push of the folder would include them)`);
  return 0;
}

/** a description in the table: its first line, cut */
const MAX_DESCRIPTION_SHOWN = 60;

/**
 * The pushed (and otherwise saved) versions of a skill, newest save first: a line each on stdout (its
 * hash as `--version` takes it, when it was made, whether it is the latest, how it was made, its
 * description), the header on stderr as `runs` has it, so stdout stays one line per version.
 */
export async function versionsCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, { json: { type: 'boolean' } }, { min: 1, max: 1, names: 'one skill name' });
  const r = await withHostOrApp(
    io,
    (host) => skillVersions(host, positionals[0]),
    (app) => app.versions(positionals[0]),
  );
  if (values.json) {
    io.out(JSON.stringify(r));
    return 0;
  }
  const described = (d: string) => {
    const first = d.trim().split('\n')[0];
    return first.length > MAX_DESCRIPTION_SHOWN ? `${first.slice(0, MAX_DESCRIPTION_SHOWN - 1)}…` : first;
  };
  const rows = r.versions.map((v) => [short(v.hash), new Date(v.createdAt).toISOString(), v.isLatest ? 'latest' : '', v.origin, counted(v.fileCount), described(v.description)]);
  const [head, ...lines] = columns([['VERSION', 'CREATED', 'LATEST', 'ORIGIN', 'FILES', 'DESCRIPTION'], ...rows]);
  if (lines.length) io.err(head);
  for (const line of lines) io.out(line);
  io.err(lines.length ? `use one with --version HASH (pull, replay, fork, regress); without it, the latest` : `${r.skill} has no versions yet: \`stagecraft push DIR\` saves a folder as one`);
  return 0;
}
