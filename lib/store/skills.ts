/**
 * Skills and their versions: what the editor saves and what a run can point to
 * (`RunRecord.skillVersionId`). Outside the kernel's port.
 *
 * Owns: "same text → same version" (unique on (skill, sha256 of the text),
 * race-free with ON CONFLICT), and "the latest save wins" (saving an older text
 * again moves that version's `saved_at` forward, so reverting A → B → A makes A
 * current again without a duplicate row).
 *
 * Does not: validate skill.md (lib/skill does), delete skills or versions.
 */
import { createHash } from 'node:crypto';
import type { PrismaClient } from './generated/prisma/client';

export type SavedSkillVersion = { skillId: string; versionId: string; hash: string; isNew: boolean };

export type SkillSummary = {
  id: string;
  name: string;
  createdAt: number;
  versionCount: number;
  /** the most recently saved version */
  latest: { versionId: string; hash: string; savedAt: number } | null;
};

export type SkillVersionRecord = {
  id: string;
  skillId: string;
  skillName: string;
  text: string;
  hash: string;
  createdAt: number;
  savedAt: number;
};

export const skillTextHash = (text: string): string => createHash('sha256').update(text).digest('hex');

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function saveSkillVersion(prisma: PrismaClient, name: string, text: string): Promise<SavedSkillVersion> {
  if (!name.trim()) throw new Error('a skill name must not be empty');
  const hash = skillTextHash(text);
  // One statement: create the skill if new, then the version if new, else touch it.
  // `xmax = 0` tells a freshly inserted row from one that ON CONFLICT updated.
  const rows = await prisma.$queryRaw<{ skill_id: string; version_id: string; is_new: boolean }[]>`
    WITH s AS (
      INSERT INTO "skills" ("name") VALUES (${name})
      ON CONFLICT ("name") DO UPDATE SET "name" = EXCLUDED."name"
      RETURNING "id"
    ),
    -- saved_at has millisecond precision: two saves in one millisecond must still order, so a
    -- save is stamped at least 1 ms after the skill's latest
    t AS (
      SELECT greatest(now(), (SELECT max(v."saved_at") + interval '1 millisecond'
                                FROM "skill_versions" v, s WHERE v."skill_id" = s."id")) AS "at"
    )
    INSERT INTO "skill_versions" ("skill_id", "text", "hash", "saved_at")
    SELECT s."id", ${text}, ${hash}, t."at" FROM s, t
    ON CONFLICT ("skill_id", "hash") DO UPDATE SET "saved_at" = EXCLUDED."saved_at"
    RETURNING "skill_id"::text, "id"::text AS version_id, (xmax = 0) AS is_new`;
  const r = rows[0];
  return { skillId: r.skill_id, versionId: r.version_id, hash, isNew: r.is_new };
}

/**
 * The version of `text`, inserted if the skill never had it — what a run records (which text it
 * ran). Unlike a save, it leaves an existing version's `saved_at` alone: running an older text
 * does not make it the skill's latest. A new text is a new version, latest as a save would be.
 */
export async function recordSkillVersion(prisma: PrismaClient, name: string, text: string): Promise<SavedSkillVersion> {
  const hash = skillTextHash(text);
  const known = await prisma.skillVersion.findFirst({ where: { hash, skill: { name } }, select: { id: true, skillId: true } });
  if (known) return { skillId: known.skillId, versionId: known.id, hash, isNew: false };
  // never seen: saved as a save would (racing recorders of one new text still make one version)
  return saveSkillVersion(prisma, name, text);
}

export async function listSkills(prisma: PrismaClient): Promise<SkillSummary[]> {
  const skills = await prisma.skill.findMany({
    orderBy: { name: 'asc' },
    include: {
      versions: { orderBy: { savedAt: 'desc' }, take: 1, select: { id: true, hash: true, savedAt: true } },
      _count: { select: { versions: true } },
    },
  });
  return skills.map((s) => {
    const v = s.versions[0];
    return {
      id: s.id,
      name: s.name,
      createdAt: s.createdAt.getTime(),
      versionCount: s._count.versions,
      latest: v ? { versionId: v.id, hash: v.hash, savedAt: v.savedAt.getTime() } : null,
    };
  });
}

export async function getSkillVersion(prisma: PrismaClient, id: string): Promise<SkillVersionRecord | null> {
  if (!UUID_RE.test(id)) return null;
  const v = await prisma.skillVersion.findUnique({ where: { id }, include: { skill: { select: { name: true } } } });
  if (!v) return null;
  return {
    id: v.id,
    skillId: v.skillId,
    skillName: v.skill.name,
    text: v.text,
    hash: v.hash,
    createdAt: v.createdAt.getTime(),
    savedAt: v.savedAt.getTime(),
  };
}
