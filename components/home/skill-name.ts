// A skill name as the dialogs check it before asking the server: the same pattern the server and
// the validator hold (lib/skill/schema.ts), said in the dialog's words instead of the API's
// ("The request body is not as this route expects: name: …").
import { SKILL_NAME_PATTERN } from '@/lib/skill/schema';

const NAME = new RegExp(SKILL_NAME_PATTERN);

/** why `name` cannot name a skill, or null when it can */
export function skillNameProblem(name: string): string | null {
  if (NAME.test(name)) return null;
  const shown = name.length > 70 ? `${name.slice(0, 69)}…` : name;
  return `“${shown}” cannot name a skill: start with a lowercase letter, then use only lowercase letters, digits or _ (up to 64 characters).`;
}
