/** STAGECRAFT_MODEL_TIMEOUT_MS read apart from the adapters, so that `npm start` can check it without loading them (lib/server/run-settings.ts). */
import { SettingsError } from '../kernel/errors';

/** STAGECRAFT_MODEL_TIMEOUT_MS: unset is the adapter's default; anything but a whole number of ms above 0 is a UsageError. */
export function timeoutFrom(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms <= 0) {
    throw new SettingsError(`STAGECRAFT_MODEL_TIMEOUT_MS must be a whole number of milliseconds, not ${JSON.stringify(raw)}.`);
  }
  return ms;
}
