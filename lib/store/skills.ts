/**
 * Skills and their versions: what the editor saves, `stagecraft push` sends,
 * and every run records. A version is a whole bundle (`files`: path → text)
 * named by one content hash. Outside the kernel's port.
 *
 * Owns: "same files → same version" (unique on (skill, bundle hash), race-free
 * with ON CONFLICT); "the latest save wins" (saving an older bundle again
 * moves that version's `saved_at` forward, so reverting A → B → A makes A
 * current again without a duplicate row), while a run *records* its version
 * without moving it; creating a skill only when the name is free; renames; and
 * deletes that keep the skill's versions (its runs stay inspectable) and free
 * the name.
 *
 * Does not: check bundles (lib/skill/bundle.ts) or read skill.md (lib/server
 * hands in the description); materialize versions on disk (lib/server).
 */
import { createHash } from 'node:crypto';
import { SkillExistsError, SkillNotFoundError, VersionNotFoundError } from '../kernel/errors';
import { dbErrorOf } from './errors';
import type { BundleFiles } from '../skill/bundle';
import { utf8Bytes } from '../skill/bundle';
// a name that is not a skill name names no skill, and never reaches a query
import { isSkillName } from '../skill/schema';
import type { PrismaClient } from './generated/prisma/client';
import { rawRows, type SqlQuery } from './run-reads';
import { BLOCKED_BY_SQL, blockedByOf, TAKEN_ON_OF_SQL, runErrorWords, type RunBlockedBy, type RunOutcomeWord } from './run-index';
import type { RunStatus } from '../kernel/ports';

export const VERSION_ORIGINS = ['app', 'push', 'run', 'example', 'create', 'rename', 'restore', 'import'] as const;
export type VersionOrigin = (typeof VERSION_ORIGINS)[number];

export type VersionSummary = {
  id: string;
  skillId: string;
  skillName: string;
  hash: string;
  description: string;
  origin: VersionOrigin;
  fileCount: number;
  sizeBytes: number;
  createdAt: number;
  savedAt: number;
};

export type VersionRecord = VersionSummary & { files: BundleFiles };

/** the run as the runs list says how it went (run-index.ts): its status, outcome, whether it needs attention, where and why it failed */
export type LastRun = {
  id: string;
  status: RunStatus;
  createdAt: number;
  outcome: RunOutcomeWord | null;
  needsAttention: boolean;
  failedAt: string | null;
  errorMessage: string | null;
  /** what blocked it, when it completed blocked (as a runs list row carries it) */
  blockedBy: RunBlockedBy | null;
};

export type SkillRecord = {
  id: string;
  name: string;
  createdAt: number;
  versionCount: number;
  /** the most recently saved version */
  latest: VersionSummary | null;
  /** the newest run of any of its versions */
  lastRun: LastRun | null;
};

export type SavedVersion = { skillId: string; versionId: string; hash: string; isNew: boolean };

export type SaveVersionOptions = {
  /**
   * `save`: the version becomes the skill's latest (a known one is moved forward; with origin
   *   `restore`, its origin becomes `restore`).
   * `record`: what a run does: a known version is left where it is; a new one is saved.
   * `create`: the skill must not exist yet (SkillExistsError otherwise).
   */
  mode: 'save' | 'record' | 'create';
  origin: VersionOrigin;
  /** the frontmatter's description, for lists */
  description: string;
  /**
   * `record` only: when a new version counts as saved (epoch ms) — an imported run's version is placed
   * at its run's time, so importing an old run does not make its version the skill's latest (default: now)
   */
  savedAt?: number;
};

/** What the app, the CLI and the run path need of skill storage (PrismaStore; MemorySkillRepo in tests). */
export type SkillRepo = {
  saveVersion(name: string, files: BundleFiles, opts: SaveVersionOptions): Promise<SavedVersion>;
  listSkills(): Promise<SkillRecord[]>;
  /** the live skills' names, sorted (cheap: what validation asks for run_skill targets) */
  skillNames(): Promise<string[]>;
  /** whether a skill of this name was deleted (and none has taken the name since) */
  wasDeleted(name: string): Promise<boolean>;
  getSkill(name: string): Promise<SkillRecord | null>;
  /** newest save first; null when there is no such skill */
  listVersions(name: string): Promise<VersionSummary[] | null>;
  /** the latest version, or the one whose hash is (or starts with) `hash`; SkillNotFoundError / VersionNotFoundError */
  getVersion(name: string, hash?: string): Promise<VersionRecord>;
  /** by id, whatever became of its skill since (a run's version) */
  getVersionById(id: string): Promise<VersionRecord | null>;
  /** the hashes of these versions (runs name the version they ran by it), without their files */
  versionHashes(ids: readonly string[]): Promise<Map<string, string>>;
  /** renames; with `files`, also saves them as a new latest version (the renamed skill.md) in the same transaction */
  renameSkill(from: string, to: string, renamed?: { files: BundleFiles; description: string }): Promise<SavedVersion | null>;
  deleteSkill(name: string): Promise<void>;
};

/** The shortest hash prefix a caller may name a version by (as git's short hashes). */
export const MIN_HASH_PREFIX = 6;

/** sha256 over the sorted paths, each with the sha256 of its content: `path\nhex\n` … (paths hold no control characters) */
export function bundleHash(files: BundleFiles): string {
  const h = createHash('sha256');
  for (const p of Object.keys(files).sort()) h.update(`${p}\n${createHash('sha256').update(files[p], 'utf8').digest('hex')}\n`);
  return h.digest('hex');
}

export function bundleSize(files: BundleFiles): number {
  let n = 0;
  for (const text of Object.values(files)) n += utf8Bytes(text);
  return n;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX_RE = /^[0-9a-f]+$/;

type VersionRow = {
  id: string;
  skill_id: string;
  skill_name: string;
  hash: string;
  description: string;
  origin: string;
  file_count: number;
  size_bytes: number;
  created_at: Date;
  saved_at: Date;
  files?: unknown;
};

const VERSION_COLUMNS = `v."id"::text AS id, v."skill_id"::text AS skill_id, s."name" AS skill_name, v."hash", v."description", v."origin",
  v."file_count", v."size_bytes", v."created_at", v."saved_at"`;

/**
 * The newest run of the version `rv` (the last run's order): one probe of runs_skill_version_id_idx,
 * which holds a version's runs newest first. The skills list takes it for each version of a skill and
 * keeps the newest: the cost is a probe per version, never a walk over the runs
 * (*_runs_last_run_by_version; skills-last-run.db.test.ts holds the plan to it).
 */
const NEWEST_RUN_OF_VERSION = `SELECT r."id" AS run_id, r."status" AS run_status, r."created_at" AS run_created_at, r."ord" AS run_ord, r."outcome" AS run_outcome,
         r."needs_attention" AS run_needs_attention, r."failed_at" AS run_failed_at, r."error_message" AS run_error_message, r."bundle_dir" AS run_bundle_dir,
         ${BLOCKED_BY_SQL} AS run_blocked_by
    FROM "runs" r WHERE r."skill_version_id" = rv."id" ORDER BY r."created_at" DESC, r."ord" DESC LIMIT 1`;

/** the skills with their latest version and last run; `where` narrows them (`AND s."name" = $1`) */
export const skillListSql = (where: string): string =>
  `SELECT s."id"::text AS s_id, s."name" AS s_name, s."created_at" AS s_created_at,
          (SELECT count(*) FROM "skill_versions" c WHERE c."skill_id" = s."id") AS version_count,
          lv.*, lr.*,
          -- the runs list's rule (run-index.ts TAKEN_ON_OF_SQL): a fork down its chain of forks completed; asked of the last run alone
          CASE WHEN lr.run_needs_attention THEN EXISTS (${TAKEN_ON_OF_SQL('lr.run_id')}) ELSE false END AS run_taken_on
     FROM "skills" s
     LEFT JOIN LATERAL (
       SELECT ${VERSION_COLUMNS} FROM "skill_versions" v WHERE v."skill_id" = s."id" ORDER BY v."saved_at" DESC LIMIT 1
     ) lv ON true
     LEFT JOIN LATERAL (
       SELECT r.*, rv."hash" AS run_version_hash
         FROM "skill_versions" rv
        CROSS JOIN LATERAL (${NEWEST_RUN_OF_VERSION}) r
        WHERE rv."skill_id" = s."id" ORDER BY r.run_created_at DESC, r.run_ord DESC LIMIT 1
     ) lr ON true
    WHERE s."deleted_at" IS NULL ${where}
    ORDER BY s."name"`;

function toSummary(r: VersionRow): VersionSummary {
  return {
    id: r.id,
    skillId: r.skill_id,
    skillName: r.skill_name,
    hash: r.hash,
    description: r.description,
    origin: r.origin as VersionOrigin,
    fileCount: Number(r.file_count),
    sizeBytes: Number(r.size_bytes),
    createdAt: r.created_at.getTime(),
    savedAt: r.saved_at.getTime(),
  };
}

function toRecord(r: VersionRow): VersionRecord {
  const files = typeof r.files === 'string' ? (JSON.parse(r.files) as BundleFiles) : (r.files as BundleFiles);
  return { ...toSummary(r), files };
}

export class PrismaSkillRepo implements SkillRepo {
  /** getVersion lookups in flight, by name and hash: callers asking the same at the same moment share one statement */
  private readonly versionLookups = new Map<string, Promise<VersionRecord>>();

  private readonly client: () => PrismaClient | Promise<PrismaClient>;

  /**
   * `prisma`: the client, or how to make it on first use. `sql`: the database's own driver, which
   * records a version, lists the skills and reads one by id without Prisma (a CLI `run`, a worker
   * and the app's first page then never wait for Prisma's engine: run-reads.ts). `lookups`: the driver
   * for the reads Prisma's pool answers otherwise (a skill's versions, a version by name, the names,
   * versions' hashes), given where the driver is the store's only line anyway (the embedded store):
   * `stagecraft push`, `pull` and `versions` then never import Prisma's client nor compile its query
   * compiler's WebAssembly.
   */
  constructor(
    prisma: PrismaClient | (() => PrismaClient | Promise<PrismaClient>),
    private readonly sql?: SqlQuery,
    private readonly lookups?: SqlQuery,
  ) {
    this.client = typeof prisma === 'function' ? prisma : () => prisma;
  }

  private async db(): Promise<PrismaClient> {
    return this.client();
  }

  /** one raw statement: on the driver when there is one, else through Prisma */
  private raw<T>(text: string, ...values: unknown[]): Promise<T[]> {
    return rawRows<T>(this.sql, () => this.db(), text, values);
  }

  /** one raw read: on `lookups` when given, else through Prisma's pool */
  private lookup<T>(text: string, ...values: unknown[]): Promise<T[]> {
    return rawRows<T>(this.lookups, () => this.db(), text, values);
  }

  /** the id of the live skill of this name, or null */
  private async liveSkillId(name: string): Promise<string | null> {
    const [row] = await this.lookup<{ id: string }>(`SELECT "id"::text AS id FROM "skills" WHERE "name" = $1 AND "deleted_at" IS NULL LIMIT 1`, name);
    return row?.id ?? null;
  }

  async saveVersion(name: string, files: BundleFiles, opts: SaveVersionOptions): Promise<SavedVersion> {
    const hash = bundleHash(files);
    if (opts.mode === 'record') {
      const known = await this.raw<{ id: string; skill_id: string }>(
        `SELECT v."id"::text AS id, v."skill_id"::text AS skill_id FROM "skill_versions" v JOIN "skills" s ON s."id" = v."skill_id"
          WHERE s."name" = $1 AND s."deleted_at" IS NULL AND v."hash" = $2`,
        name,
        hash,
      );
      if (known[0]) return { skillId: known[0].skill_id, versionId: known[0].id, hash, isNew: false };
    }
    const json = JSON.stringify(files);
    const size = bundleSize(files);
    const count = Object.keys(files).length;
    // `create` inserts the skill or nothing (a taken name yields no row); the others create it if new.
    // saved_at has millisecond precision: two saves in one millisecond must still order, so a save is
    // stamped at least 1 ms after the skill's latest. `xmax = 0` tells an inserted row from one that
    // ON CONFLICT updated; a `record` that lost a race to the same new bundle leaves saved_at alone.
    const skillCte =
      opts.mode === 'create'
        ? `INSERT INTO "skills" ("name") VALUES ($1) ON CONFLICT ("name") DO NOTHING RETURNING "id"`
        : `INSERT INTO "skills" ("name") VALUES ($1) ON CONFLICT ("name") DO UPDATE SET "name" = EXCLUDED."name" RETURNING "id"`;
    // a restore says how the version became the latest again: its origin is `restore` from then on
    const onConflict =
      opts.mode === 'record'
        ? `"saved_at" = "skill_versions"."saved_at"`
        : `"saved_at" = EXCLUDED."saved_at"${opts.origin === 'restore' ? `, "origin" = 'restore'` : ''}`;
    const rows = await this.raw<{ skill_id: string; version_id: string; is_new: boolean }>(
      `WITH s AS (${skillCte}),
       t AS (SELECT coalesce(to_timestamp($9::float8 / 1000),
                             greatest(now(), (SELECT max(v."saved_at") + interval '1 millisecond' FROM "skill_versions" v, s WHERE v."skill_id" = s."id"))) AS "at")
       INSERT INTO "skill_versions" ("skill_id", "text", "files", "hash", "description", "origin", "file_count", "size_bytes", "saved_at")
       SELECT s."id", $2, $3::json, $4, $5, $6, $7, $8, t."at" FROM s, t
       ON CONFLICT ("skill_id", "hash") DO UPDATE SET ${onConflict}
       RETURNING "skill_id"::text, "id"::text AS version_id, (xmax = 0) AS is_new`,
      name,
      files['skill.md'] ?? '',
      json,
      hash,
      opts.description,
      opts.origin,
      count,
      size,
      opts.mode === 'record' && opts.savedAt !== undefined ? opts.savedAt : null,
    );
    const r = rows[0];
    if (!r) throw new SkillExistsError(name);
    return { skillId: r.skill_id, versionId: r.version_id, hash, isNew: r.is_new };
  }

  private async skillRows(where: string, args: unknown[]): Promise<SkillRecord[]> {
    const rows = await this.raw<
      VersionRow & {
        s_id: string;
        s_name: string;
        s_created_at: Date;
        version_count: bigint;
        run_id: string | null;
        run_status: string | null;
        run_created_at: Date | null;
        run_outcome: string | null;
        run_needs_attention: boolean | null;
        run_taken_on: boolean | null;
        run_failed_at: string | null;
        run_error_message: string | null;
        run_bundle_dir: string | null;
        run_blocked_by: unknown;
        run_version_hash: string | null;
      }
    >(
      skillListSql(where),
      ...args,
    );
    return rows.map((r) => ({
      id: r.s_id,
      name: r.s_name,
      createdAt: r.s_created_at.getTime(),
      versionCount: Number(r.version_count),
      latest: r.id ? toSummary({ ...r, skill_name: r.s_name }) : null,
      lastRun: r.run_id
        ? {
            id: r.run_id,
            status: r.run_status as RunStatus,
            createdAt: (r.run_created_at as Date).getTime(),
            outcome: r.run_outcome as RunOutcomeWord | null,
            needsAttention: r.run_needs_attention === true && r.run_taken_on !== true,
            failedAt: r.run_failed_at,
            errorMessage: runErrorWords(r.run_error_message, r.run_bundle_dir, r.run_version_hash),
            blockedBy: blockedByOf(r.run_blocked_by),
          }
        : null,
    }));
  }

  listSkills(): Promise<SkillRecord[]> {
    return this.skillRows('', []);
  }

  async skillNames(): Promise<string[]> {
    const rows = await this.lookup<{ name: string }>(`SELECT "name" FROM "skills" WHERE "deleted_at" IS NULL ORDER BY "name" ASC`);
    return rows.map((r) => r.name);
  }

  async wasDeleted(name: string): Promise<boolean> {
    const rows = await this.raw<{ n: bigint }>(
      `SELECT count(*) AS n FROM "skills" WHERE "deleted_at" IS NOT NULL AND starts_with("name", $1)
         AND NOT EXISTS (SELECT 1 FROM "skills" WHERE "name" = $2)`,
      `${name}~`,
      name,
    );
    return Number(rows[0]?.n ?? 0) > 0;
  }

  async getSkill(name: string): Promise<SkillRecord | null> {
    if (!isSkillName(name)) return null;
    return (await this.skillRows(`AND s."name" = $1`, [name]))[0] ?? null;
  }

  async listVersions(name: string): Promise<VersionSummary[] | null> {
    if (!isSkillName(name)) return null;
    const skillId = await this.liveSkillId(name);
    if (skillId === null) return null;
    const rows = await this.lookup<VersionRow>(
      `SELECT ${VERSION_COLUMNS} FROM "skill_versions" v JOIN "skills" s ON s."id" = v."skill_id" WHERE v."skill_id" = $1::uuid ORDER BY v."saved_at" DESC`,
      skillId,
    );
    return rows.map(toSummary);
  }

  /**
   * A burst of runs of one skill (the app under load) asks for its latest version once per run, all
   * at the same moment: they share the lookup in flight. Nothing is kept after it answers, so a
   * version saved since (by this process or another) is seen by the next lookup.
   */
  getVersion(name: string, hash?: string): Promise<VersionRecord> {
    const key = `${name}\0${hash ?? ''}`;
    const inFlight = this.versionLookups.get(key);
    if (inFlight) return inFlight;
    const lookup = this.lookUpVersion(name, hash).finally(() => this.versionLookups.delete(key));
    this.versionLookups.set(key, lookup);
    return lookup;
  }

  private async lookUpVersion(name: string, hash?: string): Promise<VersionRecord> {
    if (!isSkillName(name)) throw new SkillNotFoundError(name);
    const badHash = hash !== undefined && (!HEX_RE.test(hash.toLowerCase()) || hash.length < MIN_HASH_PREFIX);
    // one statement on the way every run of the app starts (the skill's row is looked at alone only when none comes back)
    const rows = badHash
      ? []
      : await this.lookup<VersionRow>(
          `SELECT ${VERSION_COLUMNS}, v."files" FROM "skill_versions" v JOIN "skills" s ON s."id" = v."skill_id"
            WHERE s."name" = $1 AND s."deleted_at" IS NULL ${hash === undefined ? '' : `AND v."hash" LIKE $2`}
            ORDER BY v."saved_at" DESC LIMIT 2`,
          name,
          ...(hash === undefined ? [] : [`${hash.toLowerCase()}%`]),
        );
    if (rows.length === 0) {
      if ((await this.liveSkillId(name)) === null) throw new SkillNotFoundError(name);
      if (badHash) throw new VersionNotFoundError(name, hash as string, `a version is named by its hash (hex, at least ${MIN_HASH_PREFIX} characters)`);
      throw hash === undefined ? new VersionNotFoundError(name, '-', 'it has no version yet') : new VersionNotFoundError(name, hash);
    }
    if (hash !== undefined && rows.length > 1) throw new VersionNotFoundError(name, hash, 'several versions have hashes starting so; give more of the hash');
    return toRecord(rows[0]);
  }

  async getVersionById(id: string): Promise<VersionRecord | null> {
    if (!UUID_RE.test(id)) return null;
    // on the driver: a worker (or a resume) of a queued run reads its version here, and never loads Prisma's client
    const rows = await this.raw<VersionRow>(
      `SELECT ${VERSION_COLUMNS}, v."files" FROM "skill_versions" v JOIN "skills" s ON s."id" = v."skill_id" WHERE v."id" = $1::uuid`,
      id,
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async versionHashes(ids: readonly string[]): Promise<Map<string, string>> {
    const valid = [...new Set(ids)].filter((id) => UUID_RE.test(id));
    if (valid.length === 0) return new Map();
    const rows = await this.lookup<{ id: string; hash: string }>(`SELECT "id"::text AS id, "hash" FROM "skill_versions" WHERE "id" = ANY($1::uuid[])`, valid);
    return new Map(rows.map((r) => [r.id, r.hash]));
  }

  async renameSkill(from: string, to: string, renamed?: { files: BundleFiles; description: string }): Promise<SavedVersion | null> {
    if (from === to) throw new SkillExistsError(to);
    if (!isSkillName(from)) throw new SkillNotFoundError(from);
    try {
      return await (await this.db()).$transaction(async (tx) => {
        const taken = await tx.skill.findFirst({ where: { name: to }, select: { id: true } });
        if (taken) throw new SkillExistsError(to);
        const n = await tx.skill.updateMany({ where: { name: from, deletedAt: null }, data: { name: to } });
        if (n.count === 0) throw new SkillNotFoundError(from);
        if (!renamed) return null;
        return new PrismaSkillRepo(tx as unknown as PrismaClient).saveVersion(to, renamed.files, { mode: 'save', origin: 'rename', description: renamed.description });
      });
    } catch (e) {
      // two renames (or a create) racing to the same name: the loser hits the unique key after the check above
      if (dbErrorOf(e)?.code === '23505' || (e as { code?: unknown })?.code === 'P2002') throw new SkillExistsError(to);
      throw e;
    }
  }

  async deleteSkill(name: string): Promise<void> {
    if (!isSkillName(name)) throw new SkillNotFoundError(name);
    // the name moves aside (`~` is never in a skill name) so a new skill may take it; versions and runs stay
    const n = await (await this.db()).$executeRawUnsafe(
      `UPDATE "skills" SET "deleted_at" = now(), "name" = "name" || '~' || "id"::text WHERE "name" = $1 AND "deleted_at" IS NULL`,
      name,
    );
    if (n === 0) throw new SkillNotFoundError(name);
  }
}
