-- A skill version becomes the whole bundle: every file (path -> text), named by
-- one content hash over the files. Versions saved before this held skill.md
-- alone: they become one-file bundles, and their hash is recomputed the way
-- lib/store/skills.ts bundleHash computes it, so saving the same bundle again
-- finds them.

-- AlterTable
ALTER TABLE "skill_versions" ADD COLUMN     "description" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "file_count" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "files" JSON,
ADD COLUMN     "origin" TEXT NOT NULL DEFAULT 'app',
ADD COLUMN     "size_bytes" INTEGER NOT NULL DEFAULT 0;

-- bundleHash({"skill.md": text}) = sha256("skill.md\n" || sha256hex(text) || "\n")
UPDATE "skill_versions" SET
  "files" = json_build_object('skill.md', "text"),
  "hash" = encode(sha256(convert_to('skill.md' || E'\n' || encode(sha256(convert_to("text", 'UTF8')), 'hex') || E'\n', 'UTF8')), 'hex'),
  "file_count" = 1,
  "size_bytes" = octet_length("text");

ALTER TABLE "skill_versions" ALTER COLUMN "files" SET NOT NULL;

-- AlterTable
ALTER TABLE "skills" ADD COLUMN     "deleted_at" TIMESTAMPTZ(3);
