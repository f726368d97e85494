/**
 * A store as a team's looks after months of use, for the tests and benches of what lists and sums
 * runs (the skills list's last run, the runs list and its chart): `skills` skills with a few versions
 * each, and `runs` runs over the last `days` days, written in a few SQL statements (the commit path
 * would take minutes for 100k). Works on Postgres and the embedded PGlite alike.
 *
 * The runs are spread unevenly: the first skills run most (skill_00 about a third of all runs, the
 * last ones a few percent); the one before last (a retired skill) ran only in the first tenth of the
 * span; the last skill was just created and never ran. Each run used the version of its skill that
 * was current when it started; one run in ten names no version (a folder's run); one in fifty is a
 * replay of the run before it. Statuses as a busy store has them: 80% completed (succeeded, some
 * blocked — a stage denied a tool call — or failed by a stage), 10% failed at a step, 5% aborted by the user, 5% aborted by a
 * step; the newest few are running or queued. Reports, errors and inputs are a few hundred bytes.
 * Deterministic: the same arguments make the same rows. Then ANALYZE, as autovacuum would.
 */

/** one statement on the store's database (Prisma's $executeRawUnsafe, bound to its client) */
export type Execute = (sql: string, ...values: unknown[]) => Promise<unknown>;

export type FillOptions = { runs: number; skills?: number; days?: number; prefix?: string };

/** the skills' names, in the order of how much they run (the last two: retired, never run) */
export const fillSkillNames = (skills = 10, prefix = 'skill_'): string[] =>
  Array.from({ length: skills }, (_, i) => `${prefix}${String(i).padStart(2, '0')}`);

export async function fillRuns(exec: Execute, opts: FillOptions): Promise<void> {
  const { runs, skills = 10, days = 90, prefix = 'skill_' } = opts;
  const names = fillSkillNames(skills, prefix);
  // skills, created before their first run; skill k has 2 + k % 4 versions, saved over the span
  await exec(
    `INSERT INTO "skills" ("name", "created_at")
     SELECT n, now() - make_interval(days => $2::int + 1) FROM unnest($1::text[]) AS n`,
    names,
    days,
  );
  await exec(
    `INSERT INTO "skill_versions" ("skill_id", "text", "files", "hash", "description", "origin", "file_count", "size_bytes", "created_at", "saved_at")
     SELECT s."id", t.text, json_build_object('skill.md', t.text), md5(s."name" || '#' || v) || md5(s."name" || '@' || v),
            'Version ' || v || ' of ' || s."name", 'app', 1, length(t.text),
            now() - make_interval(days => $1::int) + (v - 1) * make_interval(days => $1::int) / (2 + k % 4),
            now() - make_interval(days => $1::int) + (v - 1) * make_interval(days => $1::int) / (2 + k % 4)
       FROM (SELECT "id", "name", (row_number() OVER (ORDER BY "name"))::int - 1 AS k FROM "skills" WHERE "name" = ANY($2::text[])) s,
            generate_series(1, 2 + s.k % 4) AS v,
            LATERAL (SELECT E'---\nname: ' || s."name" || E'\ndescription: drafts a reply and checks it\n---\n' || repeat('Draft the answer, then check it against the rubric. ', 10) || v AS text) t`,
    days,
    names,
  );
  // per run: h picks its skill (h² skews it to the first ones), h2 its status
  await exec(
    `WITH g AS (
       SELECT g, ((g::bigint * 2654435761) % 4294967296) / 4294967296.0 AS h, ((g::bigint * 40503) % 65536) / 65536.0 AS h2,
              now() - make_interval(days => $2::int) + (g - 1) * make_interval(days => $2::int) / $1::int AS at
         FROM generate_series(1, $1::int) AS g
     ), k AS (
       SELECT g.*, CASE WHEN k0 = $3::int - 1 OR (k0 = $3::int - 2 AND g > $1::int / 10) THEN 0 ELSE k0 END AS k
         FROM (SELECT g.*, least($3::int - 1, floor(h * h * $3::int))::int AS k0 FROM g) g
     ), r AS (
       SELECT k.*, s."name" AS skill_name, v."id" AS version_id, v."hash" AS version_hash, v."text" AS text,
              CASE WHEN g > $1::int - 5 THEN 'queued' WHEN g > $1::int - 20 THEN 'running'
                   WHEN h2 < 0.80 THEN 'completed' WHEN h2 < 0.90 THEN 'failed' ELSE 'aborted' END AS status
         FROM k JOIN (SELECT "id", "name", (row_number() OVER (ORDER BY "name"))::int - 1 AS k FROM "skills" WHERE "name" = ANY($4::text[])) s ON s.k = k.k
         CROSS JOIN LATERAL (
           SELECT "id", "hash", "text" FROM "skill_versions" WHERE "skill_id" = s."id" AND "saved_at" <= k.at ORDER BY "saved_at" DESC LIMIT 1
         ) v
     )
     INSERT INTO "runs" ("id", "skill_name", "skill_hash", "skill_text", "bundle_dir", "skill_version_id", "input", "model", "status",
                         "output", "error", "report", "kind", "parent_run_id", "created_at", "updated_at")
     SELECT 'run_fill_' || lpad(g::text, 7, '0'), skill_name, version_hash, text, '/srv/stagecraft/bundles/' || version_hash,
            CASE WHEN g % 10 = 3 THEN NULL ELSE version_id END,
            json_build_object('ticket', 'T-' || g, 'question', 'How do I rotate the API key of workspace ' || (g % 97) || '?', 'tone', 'friendly'),
            'scripted:model.yaml', status,
            CASE WHEN status = 'completed' THEN json_build_object('reply', repeat('Go to Settings, then Keys, and press Rotate. ', 4), 'confidence', 0.8) END,
            CASE status
              WHEN 'failed' THEN json_build_object('message', 'step check failed: the reply cites no source (run ' || g || ')', 'phase', '__post__', 'step', g % 3, 'stepType', 'code')
              WHEN 'aborted' THEN CASE WHEN h2 < 0.95 THEN json_build_object('message', 'aborted on request', 'requestedBy', 'user')
                                       ELSE json_build_object('message', 'aborted by step gate', 'phase', 'draft', 'step', 1, 'stepType', 'code', 'position', 'draft/pre/1') END
            END,
            CASE WHEN status IN ('queued', 'running') THEN NULL ELSE json_build_object(
              'outcome', CASE WHEN status = 'completed' AND h2 < 0.76 THEN 'succeeded' WHEN status = 'completed' AND h2 < 0.78 THEN 'blocked' ELSE 'failed' END,
              'rounds', 1 + g % 3, 'phases', json_build_array('draft', 'check', '__post__'),
              'failed_stage', CASE WHEN status = 'completed' AND h2 >= 0.78 THEN json_build_object('capability', 'lint', 'stage', 'check') END,
              'aborted_by', CASE WHEN status = 'aborted' AND h2 < 0.95 THEN json_build_object('by', 'request') END,
              'blocked_by', CASE WHEN status = 'completed' AND h2 >= 0.76 AND h2 < 0.78 THEN json_build_object('stage', 'path_guard', 'position', 'draft/r1/pre-tool/0', 'call', g % 3, 'reason', 'reading secrets/keys.txt is not allowed by path_guard') END,
              'summary', repeat('Drafted, checked against the rubric, revised. ', 3)) END,
            CASE WHEN g % 50 = 7 THEN 'replay' ELSE 'run' END,
            CASE WHEN g % 50 = 7 THEN 'run_fill_' || lpad((g - 1)::text, 7, '0') END,
            at, at + make_interval(secs => 2 + g % 40)
       FROM r ORDER BY g`,
    runs,
    days,
    skills,
    names,
  );
  await exec(`ANALYZE "skills", "skill_versions", "runs"`);
}
