/** Skill records → the read model's views (lib/views). */
import type { SkillRecord, VersionRecord, VersionSummary } from '../../store/skills';
import type { SkillDetailView, SkillView, VersionSummaryView, VersionView } from '../../views';

export function versionSummaryView(v: VersionSummary): VersionSummaryView {
  return {
    hash: v.hash,
    skill: v.skillName,
    description: v.description,
    origin: v.origin,
    fileCount: v.fileCount,
    sizeBytes: v.sizeBytes,
    createdAt: v.createdAt,
    savedAt: v.savedAt,
  };
}

export function versionView(v: VersionRecord): VersionView {
  return { ...versionSummaryView(v), files: v.files };
}

export function skillView(s: SkillRecord): SkillView {
  return {
    name: s.name,
    description: s.latest?.description ?? '',
    createdAt: s.createdAt,
    savedAt: s.latest?.savedAt ?? null,
    versionCount: s.versionCount,
    latestVersion: s.latest?.hash ?? null,
    lastRun: s.lastRun,
  };
}

export function skillDetailView(s: SkillRecord, latest: VersionRecord | null): SkillDetailView {
  return { ...skillView(s), version: latest ? versionView(latest) : null };
}
