-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "skills" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "skills_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "skill_versions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "skill_id" UUID NOT NULL,
    "text" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "saved_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "skill_versions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "runs" (
    "id" TEXT NOT NULL,
    "ord" BIGSERIAL NOT NULL,
    "skill_name" TEXT NOT NULL,
    "skill_hash" TEXT NOT NULL,
    "skill_text" TEXT NOT NULL,
    "bundle_dir" TEXT NOT NULL,
    "skill_version_id" UUID,
    "input" JSONB NOT NULL,
    "model" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "output" JSONB,
    "error" JSONB,
    "report" JSONB,
    "parent_run_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "events" (
    "run_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "data" JSONB NOT NULL,

    CONSTRAINT "events_pkey" PRIMARY KEY ("run_id","seq")
);

-- CreateTable
CREATE TABLE "stage_traces" (
    "id" TEXT NOT NULL,
    "ord" BIGSERIAL NOT NULL,
    "run_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "round" INTEGER NOT NULL,
    "phase" TEXT NOT NULL,
    "rung" TEXT NOT NULL,
    "capability" TEXT NOT NULL,
    "stage" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "effects" JSONB NOT NULL,
    "contribution" JSONB,
    "not_applied" JSONB NOT NULL,
    "error" JSONB,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "ended_at" TIMESTAMPTZ(3) NOT NULL,
    "duration_ms" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "stage_traces_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "snapshots" (
    "run_id" TEXT NOT NULL,
    "current_phase" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "data" JSONB NOT NULL,

    CONSTRAINT "snapshots_pkey" PRIMARY KEY ("run_id")
);

-- CreateTable
CREATE TABLE "workspace_artifacts" (
    "run_id" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "ord" BIGSERIAL NOT NULL,
    "content" JSONB NOT NULL,
    "sha256" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "workspace_artifacts_pkey" PRIMARY KEY ("run_id","path")
);

-- CreateIndex
CREATE UNIQUE INDEX "skills_name_key" ON "skills"("name");

-- CreateIndex
CREATE INDEX "skill_versions_skill_id_saved_at_idx" ON "skill_versions"("skill_id", "saved_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "skill_versions_skill_id_hash_key" ON "skill_versions"("skill_id", "hash");

-- CreateIndex
CREATE INDEX "runs_created_at_idx" ON "runs"("created_at" DESC);

-- CreateIndex
CREATE INDEX "runs_skill_name_created_at_idx" ON "runs"("skill_name", "created_at" DESC);

-- CreateIndex
CREATE INDEX "runs_status_created_at_idx" ON "runs"("status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "runs_parent_run_id_idx" ON "runs"("parent_run_id");

-- CreateIndex
CREATE INDEX "runs_skill_version_id_idx" ON "runs"("skill_version_id");

-- CreateIndex
CREATE INDEX "stage_traces_run_id_ord_idx" ON "stage_traces"("run_id", "ord");

-- CreateIndex
CREATE INDEX "workspace_artifacts_run_id_ord_idx" ON "workspace_artifacts"("run_id", "ord");

-- AddForeignKey
ALTER TABLE "skill_versions" ADD CONSTRAINT "skill_versions_skill_id_fkey" FOREIGN KEY ("skill_id") REFERENCES "skills"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "runs" ADD CONSTRAINT "runs_skill_version_id_fkey" FOREIGN KEY ("skill_version_id") REFERENCES "skill_versions"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "events" ADD CONSTRAINT "events_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE RESTRICT ON UPDATE RESTRICT;

-- AddForeignKey
ALTER TABLE "stage_traces" ADD CONSTRAINT "stage_traces_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "snapshots" ADD CONSTRAINT "snapshots_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workspace_artifacts" ADD CONSTRAINT "workspace_artifacts_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
