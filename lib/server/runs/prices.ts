/**
 * The price table (`STAGECRAFT_PRICES`): inline JSON, or the path of a JSON
 * file (relative to the working directory), of the form
 *
 *   { "currency": "USD", "models": { "gpt-4o-mini": { "input": 0.15, "output": 0.6 }, "*": { … } } }
 *
 * with prices per million input and output tokens. A model is looked up by
 * the spec its run recorded (`openai:gpt-4o-mini`), then by its name
 * (`gpt-4o-mini`), then `*`. Unset: no cost is shown. A table that does not
 * parse is a clear error naming what is wrong, never a silent zero; the app's
 * start checks it too (lib/server/run-settings.ts: appSettingsProblems).
 *
 * Owns: reading the setting. Does not: compute costs (lib/kernel/prices.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { SettingsError } from '../../kernel/errors';
import type { PriceTable } from '../../kernel/prices';

const price = z.number().finite().min(0);
const PriceTableSchema = z
  .object({
    currency: z.string().min(1).default('USD'),
    models: z.record(z.string().min(1), z.object({ input: price, output: price }).strict()),
  })
  .strict();

/** the form a table takes, for the errors */
const FORM = 'Write {"currency": "USD", "models": {"<model>": {"input": <per 1M input tokens>, "output": <per 1M output tokens>}}}.';

export function priceTableFrom(env: Record<string, string | undefined>, cwd: string): PriceTable | null {
  const raw = env.STAGECRAFT_PRICES?.trim();
  if (!raw) return null;
  let text = raw;
  let where = 'STAGECRAFT_PRICES';
  if (!raw.startsWith('{')) {
    const file = path.resolve(cwd, raw);
    if (!existsSync(file)) throw new SettingsError(`STAGECRAFT_PRICES names ${file}, which does not exist. Set it to a JSON price table or the path of one. ${FORM}`);
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      // a folder, a file not readable by this user: said as a setting's mistake, not thrown as a crash
      throw new SettingsError(`STAGECRAFT_PRICES names ${file}, which cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}). Set it to a JSON price table or the path of a readable file holding one.`);
    }
    where = `${file} (STAGECRAFT_PRICES)`;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new SettingsError(`The price table in ${where} is not JSON: ${(e as Error).message}. ${FORM}`);
  }
  const r = PriceTableSchema.safeParse(parsed);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new SettingsError(
      `The price table in ${where} is not as expected at ${i.path.join('.') || '(the table)'}: ${i.message}. ${FORM}`,
    );
  }
  return r.data;
}
