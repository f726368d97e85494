/**
 * SkillRepo in memory, for tests that run on the kernel's MemoryStore: the
 * same answers as PrismaSkillRepo (skills-contract.ts holds both to one
 * suite). `lastRun` comes from the MemoryStore it is given, if any, read as the
 * runs table's generated columns read it (run-columns.ts).
 */
import { SkillExistsError, SkillNotFoundError, VersionNotFoundError } from '../../kernel/errors';
import type { StorePort } from '../../kernel/ports';
import type { BundleFiles } from '../../skill/bundle';
import { MIN_HASH_PREFIX, bundleHash, bundleSize, type SaveVersionOptions, type SavedVersion, type SkillRecord, type SkillRepo, type VersionRecord, type VersionSummary } from '../skills';
import { blockedByOf, runErrorWords, type RunOutcomeWord } from '../run-index';
import { runFailedAt, runNeedsAttention } from './run-columns';

/** run-index.ts TAKEN_ON_OF_SQL: a fork that completed down the run's chain of forks (at most 32 deep) took it on */
function takenOn(id: string, runs: readonly { id: string; kind: string; parentRunId: string | null; status: string }[], depth = 1): boolean {
  if (depth > 32) return false;
  return runs.some((d) => d.parentRunId === id && d.kind === 'fork' && (d.status === 'completed' || takenOn(d.id, runs, depth + 1)));
}

type Skill = { id: string; name: string; createdAt: number; deleted: boolean; versions: VersionRecord[] };

export class MemorySkillRepo implements SkillRepo {
  private skills: Skill[] = [];
  private seq = 0;
  private clock = 0;

  constructor(private readonly runs?: Pick<StorePort, 'listRuns'>) {}

  /** strictly increasing milliseconds, as the SQL version keeps saves ordered */
  private now(): number {
    this.clock = Math.max(Date.now(), this.clock + 1);
    return this.clock;
  }

  private live(name: string): Skill | undefined {
    return this.skills.find((s) => s.name === name && !s.deleted);
  }

  async saveVersion(name: string, files: BundleFiles, opts: SaveVersionOptions): Promise<SavedVersion> {
    let skill = this.live(name);
    if (skill && opts.mode === 'create') throw new SkillExistsError(name);
    if (!skill) {
      skill = { id: `00000000-0000-4000-8000-${String(++this.seq).padStart(12, '0')}`, name, createdAt: this.now(), deleted: false, versions: [] };
      this.skills.push(skill);
    }
    const hash = bundleHash(files);
    const known = skill.versions.find((v) => v.hash === hash);
    if (known) {
      if (opts.mode !== 'record') known.savedAt = this.now();
      if (opts.mode === 'save' && opts.origin === 'restore') known.origin = 'restore';
      return { skillId: skill.id, versionId: known.id, hash, isNew: false };
    }
    const at = opts.mode === 'record' && opts.savedAt !== undefined ? opts.savedAt : this.now();
    const v: VersionRecord = {
      id: `00000000-0000-4000-9000-${String(++this.seq).padStart(12, '0')}`,
      skillId: skill.id,
      skillName: name,
      hash,
      description: opts.description,
      origin: opts.origin,
      fileCount: Object.keys(files).length,
      sizeBytes: bundleSize(files),
      createdAt: at,
      savedAt: at,
      files: structuredClone(files),
    };
    skill.versions.push(v);
    return { skillId: skill.id, versionId: v.id, hash, isNew: true };
  }

  private sorted(skill: Skill): VersionRecord[] {
    return [...skill.versions].sort((a, b) => b.savedAt - a.savedAt);
  }

  private summary(skill: Skill, v: VersionRecord): VersionSummary {
    const { files: _files, ...rest } = v;
    return { ...rest, skillName: skill.name };
  }

  private async record(skill: Skill): Promise<SkillRecord> {
    const ids = new Set(skill.versions.map((v) => v.id));
    const all = this.runs ? await this.runs.listRuns() : [];
    const runs = all.filter((r) => r.skillVersionId !== null && ids.has(r.skillVersionId));
    const last = runs.sort((a, b) => b.createdAt - a.createdAt)[0];
    const latest = this.sorted(skill)[0];
    return {
      id: skill.id,
      name: skill.name,
      createdAt: skill.createdAt,
      versionCount: skill.versions.length,
      latest: latest ? this.summary(skill, latest) : null,
      lastRun: last
        ? {
            id: last.id,
            status: last.status,
            createdAt: last.createdAt,
            outcome: typeof last.report?.outcome === 'string' ? (last.report.outcome as RunOutcomeWord) : null,
            needsAttention: runNeedsAttention(last) && !takenOn(last.id, all),
            failedAt: runFailedAt(last),
            errorMessage: runErrorWords(typeof last.error?.message === 'string' ? last.error.message : null, last.bundleDir),
            blockedBy: last.status === 'completed' && last.report?.outcome === 'blocked' ? blockedByOf(last.report.blocked_by) : null,
          }
        : null,
    };
  }

  async listSkills(): Promise<SkillRecord[]> {
    const live = this.skills.filter((s) => !s.deleted).sort((a, b) => (a.name < b.name ? -1 : 1));
    return Promise.all(live.map((s) => this.record(s)));
  }

  async skillNames(): Promise<string[]> {
    return this.skills.filter((s) => !s.deleted).map((s) => s.name).sort();
  }

  async wasDeleted(name: string): Promise<boolean> {
    return !this.live(name) && this.skills.some((s) => s.deleted && s.name.startsWith(`${name}~`));
  }

  async getSkill(name: string): Promise<SkillRecord | null> {
    const s = this.live(name);
    return s ? this.record(s) : null;
  }

  async listVersions(name: string): Promise<VersionSummary[] | null> {
    const s = this.live(name);
    return s ? this.sorted(s).map((v) => this.summary(s, v)) : null;
  }

  async getVersion(name: string, hash?: string): Promise<VersionRecord> {
    const s = this.live(name);
    if (!s) throw new SkillNotFoundError(name);
    if (hash === undefined) {
      const latest = this.sorted(s)[0];
      if (!latest) throw new VersionNotFoundError(name, '-', 'it has no version yet');
      return { ...structuredClone(latest), skillName: s.name };
    }
    const h = hash.toLowerCase();
    if (!/^[0-9a-f]+$/.test(h) || h.length < MIN_HASH_PREFIX) throw new VersionNotFoundError(name, hash, `a version is named by its hash (hex, at least ${MIN_HASH_PREFIX} characters)`);
    const found = s.versions.filter((v) => v.hash.startsWith(h));
    if (found.length === 0) throw new VersionNotFoundError(name, hash);
    if (found.length > 1) throw new VersionNotFoundError(name, hash, 'several versions have hashes starting so; give more of the hash');
    return { ...structuredClone(found[0]), skillName: s.name };
  }

  async getVersionById(id: string): Promise<VersionRecord | null> {
    for (const s of this.skills) {
      const v = s.versions.find((x) => x.id === id);
      if (v) return { ...structuredClone(v), skillName: s.name };
    }
    return null;
  }

  async versionHashes(ids: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const s of this.skills) for (const v of s.versions) if (ids.includes(v.id)) out.set(v.id, v.hash);
    return out;
  }

  async renameSkill(from: string, to: string, renamed?: { files: BundleFiles; description: string }): Promise<SavedVersion | null> {
    if (from === to || this.skills.some((s) => s.name === to)) throw new SkillExistsError(to);
    const s = this.live(from);
    if (!s) throw new SkillNotFoundError(from);
    s.name = to;
    return renamed ? this.saveVersion(to, renamed.files, { mode: 'save', origin: 'rename', description: renamed.description }) : null;
  }

  async deleteSkill(name: string): Promise<void> {
    const s = this.live(name);
    if (!s) throw new SkillNotFoundError(name);
    s.deleted = true;
    s.name = `${name}~${s.id}`;
  }
}
