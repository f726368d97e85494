/**
 * What a run's code and workspace may use, from the environment: the workspace quota, how long a finished
 * run's workspace is kept, a sandboxed worker's /tmp. Apart from host.ts so that `npm start` can check these
 * settings (run-settings.ts) without loading the sandbox and the models.
 */
import { SettingsError } from '../kernel/errors';
import { DEFAULT_TMP_BYTES } from '../sandbox/isolation';
import { sizeFromEnv, workspaceQuotaFromEnv, type WorkspaceQuota } from '../sandbox/workspace-usage';
import type { ModelEnv } from '../models';

export type RunLimits = {
  /** STAGECRAFT_WORKSPACE_MAX_BYTES, STAGECRAFT_WORKSPACE_MAX_FILES: per workspace Stagecraft makes */
  workspaceQuota: WorkspaceQuota;
  /** STAGECRAFT_WORKSPACE_RETENTION: how long a finished run's workspace is kept */
  workspaceRetentionMs: number;
  /** STAGECRAFT_SANDBOX_TMP_SIZE: a sandboxed worker's /tmp */
  tmpBytes: number;
};

export const DEFAULT_WORKSPACE_RETENTION_MS = 24 * 60 * 60 * 1000;

/** The limits the environment sets (an invalid value is a UsageError naming the variable). */
export function runLimitsFromEnv(env: ModelEnv): RunLimits {
  return {
    workspaceQuota: workspaceQuotaFromEnv(env),
    workspaceRetentionMs: durationFromEnv(env, 'STAGECRAFT_WORKSPACE_RETENTION', DEFAULT_WORKSPACE_RETENTION_MS),
    tmpBytes: sizeFromEnv(env, 'STAGECRAFT_SANDBOX_TMP_SIZE', DEFAULT_TMP_BYTES),
  };
}

const DURATION_UNITS_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `name` from env as a duration (`30m`, `24h`, `7d`; `0` for none), or `fallback` when unset. */
export function durationFromEnv(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const m = /^(\d+)\s*([smhd])$/.exec(raw.trim());
  if (raw.trim() === '0') return 0;
  if (!m) throw new SettingsError(`${name}=${JSON.stringify(raw)}: give a duration such as 30m, 24h or 7d (or 0).`);
  return Number(m[1]) * DURATION_UNITS_MS[m[2]];
}
