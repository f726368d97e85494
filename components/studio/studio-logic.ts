// The studio's decisions as plain functions (the hooks in ./hooks call them): which draft to offer
// back, which models a run may use, what stops a run, which key does what, what a save says.
// Kept apart from React so each is tested on its own (studio-logic.test.ts).
import { bundlePaths, isModelScript } from '@/lib/skill/bundle';
import type { Files, SavedVersionView } from '@/lib/views';
import type { Draft } from './drafts';
import { sameFiles } from './drafts';
import type { CheckedInput } from './input-errors';
import { plural } from '@/lib/kernel/plural';

export type Notice = { kind: 'ok' | 'error' | 'info'; text: string } | null;
export type ModelChoice = { value: string; label: string; disabled: boolean };
export type OpenAiSetting = { configured: boolean; model: string | null };

/** The draft to give back when the page opens, and what to tell the user; null when there is none worth it. */
export function draftOffer(draft: Draft | null, opened: Files, openedHash: string | null, when: (ms: number) => string, aside: Draft | null = null, asideMore = 0): { files: Files; note: string } | null {
  if (!draft || sameFiles(draft.files, opened)) return null;
  const at = when(draft.at);
  const more = asideMore > 0 ? ` Unsaved changes from ${asideMore === 1 ? '1 more tab are' : `${asideMore} more tabs are`} kept as well, offered one at a time after those.` : '';
  const also = aside && !sameFiles(aside.files, draft.files) ? ` Another tab's unsaved changes from ${when(aside.at)} are kept too: they are offered here when the skill next opens, once these are saved or discarded.${more}` : '';
  return {
    files: draft.files,
    note:
      (draft.base === openedHash
        ? `Your unsaved changes from ${at} are back.`
        : `Your unsaved changes from ${at} are back; they were made on an older version than the latest.`) + also,
  };
}

/** The models a run of these files may use: its model scripts, then the configured endpoint (or why there is none). */
export function modelChoicesFor(files: Files, openai: OpenAiSetting): ModelChoice[] {
  const scripts = bundlePaths(files).filter((p) => isModelScript(p, files[p]));
  return [
    ...scripts.map((p) => ({ value: `scripted:${p}`, label: `Model script ${p}`, disabled: false })),
    openai.configured
      ? { value: 'openai', label: `OpenAI-compatible endpoint (${openai.model ?? 'STAGECRAFT_MODEL'})`, disabled: false }
      : { value: 'openai', label: 'OpenAI-compatible endpoint — not configured (set STAGECRAFT_MODEL_BASE_URL and STAGECRAFT_MODEL)', disabled: true },
  ];
}

/** The model picked, while it is still a choice; else the first usable one ('' when none is). */
export function pickModel(choices: readonly ModelChoice[], picked: string | null): string {
  if (picked !== null && choices.some((c) => c.value === picked && !c.disabled)) return picked;
  return choices.find((c) => !c.disabled)?.value ?? '';
}

/** Why a run cannot start now (the notice to show), or null. */
export function runRefusal(errors: number, input: CheckedInput, model: string): string | null {
  if (errors) return `skill.md has ${plural(errors, 'error')}: fix ${errors === 1 ? 'it' : 'them'} (see Problems) before running.`;
  if (input.problems.length || !input.value) {
    const p = input.problems[0];
    return `The input is not right: ${p ? `${p.line}:${p.column} ${p.message}` : 'it must be a JSON object'}.`;
  }
  if (!model) return `${NO_MODEL}: add a model script (model.yaml) to the skill, or configure an OpenAI-compatible endpoint.`;
  return null;
}

const NO_MODEL = 'No model to run with';

/**
 * What the model select shows when no choice is usable (else nothing: the picked one shows), and the
 * note under it: why a choice is unusable, or, when none is, what to add.
 */
export function modelShown(choices: readonly ModelChoice[], model: string): { placeholder: string | null; note: string | null } {
  if (model) return { placeholder: null, note: choices.find((c) => c.disabled)?.label ?? null };
  return { placeholder: NO_MODEL, note: `${NO_MODEL}: add a model script (model.yaml, its turns) to the skill, or configure an OpenAI-compatible endpoint (set STAGECRAFT_MODEL_BASE_URL and STAGECRAFT_MODEL).` };
}

/** Ctrl/Cmd+S saves, Ctrl/Cmd+Enter runs, from anywhere on the page. */
export function shortcutOf(e: { key: string; ctrlKey: boolean; metaKey: boolean; defaultPrevented: boolean }): 'save' | 'run' | null {
  if (!(e.ctrlKey || e.metaKey) || e.defaultPrevented) return null;
  if (e.key === 's' || e.key === 'S') return 'save';
  if (e.key === 'Enter') return 'run';
  return null;
}

/** What a save tells the user: the version, whether it is new, and whether its skill.md can run. */
export function savedNotice(r: SavedVersionView): Notice {
  const n = r.validation.errors;
  const findings = n ? ` — skill.md has ${plural(n, 'error')}; runs are refused until they are fixed` : '';
  return { kind: n ? 'error' : 'ok', text: `${r.isNew ? 'Saved as version' : 'Saved: same as version'} ${r.version.hash.slice(0, 8)}${findings}` };
}
