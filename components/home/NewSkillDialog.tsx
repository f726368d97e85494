'use client';
// New skill: a name, and what to start from — the template that runs offline,
// an example bundle, or a copy of a skill already here. On success, the editor.
import * as Dialog from '@radix-ui/react-dialog';
import { useRouter } from 'next/navigation';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { routes } from '@/lib/api/routes';
import { callRoute } from '@/lib/client/api';
import { useHydrated } from '@/components/common/use-hydrated';
import { skillNameProblem } from './skill-name';
import styles from './Home.module.css';

type Props = {
  /** the skills here, by name: each can be copied */
  skills: string[];
  /** the example bundles that ship with the app */
  examples: string[];
};

const BLANK = 'blank';

export function NewSkillDialog({ skills, examples }: Props) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  // disabled until hydrated: a click on the server's HTML reaches no handler, the dialog did not open (components/common/use-hydrated.ts)
  const hydrated = useHydrated();
  const [name, setName] = useState('');
  const [from, setFrom] = useState(BLANK);
  const create = useMutation({
    mutationFn: (wanted: string) => callRoute(routes.createSkill, { body: { name: wanted, from } }),
    // stays pending: the dialog goes away with the page
    onSuccess: (created) => router.push(`/skills/${encodeURIComponent(created.name)}`),
  });
  const isBusy = create.isPending || create.isSuccess;
  const [nameProblem, setNameProblem] = useState<string | null>(null);
  const error = nameProblem ?? create.error?.message ?? null;
  // `from: <name>` copies the skill of that name when there is one, so an example
  // that is also a skill here is offered once, as the skill (it may have been edited)
  const freshExamples = examples.filter((e) => !skills.includes(e));

  const changeOpen = (isOpen: boolean) => {
    if (isBusy) return;
    if (isOpen) {
      setName('');
      setFrom(BLANK);
      setNameProblem(null);
      create.reset();
    }
    setOpen(isOpen);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const wanted = name.trim();
    if (!wanted) return;
    // said here, in the dialog's words, before the server is asked
    setNameProblem(skillNameProblem(wanted));
    if (!skillNameProblem(wanted)) create.mutate(wanted);
  };

  return (
    <Dialog.Root open={open} onOpenChange={changeOpen}>
      <Dialog.Trigger asChild>
        <button type="button" className="btn btn-primary" disabled={!hydrated}>
          <svg width="12" height="12" viewBox="0 0 12 12" aria-hidden="true">
            <path d="M6 1v10M1 6h10" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
          </svg>
          New skill
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title asChild>
            <h2>New skill</h2>
          </Dialog.Title>
          <Dialog.Description>Name it, pick what it starts from, and it opens in the editor.</Dialog.Description>
          <form onSubmit={submit}>
            <div className="field">
              <label htmlFor="new-skill-name">Name</label>
              <input
                id="new-skill-name"
                className={`input ${styles.mono}`}
                value={name}
                onChange={(e) => setName(e.target.value)}
                placeholder="my_skill"
                autoComplete="off"
                spellCheck={false}
                aria-describedby="new-skill-name-hint"
                aria-invalid={error ? true : undefined}
              />
              <span id="new-skill-name-hint" className={styles.hint}>
                A lowercase letter, then lowercase letters, digits or _ (up to 64).
              </span>
            </div>
            <div className="field">
              <label htmlFor="new-skill-from">Start from</label>
              <select id="new-skill-from" className="select" value={from} onChange={(e) => setFrom(e.target.value)}>
                <option value={BLANK}>Blank — a template skill that runs offline</option>
                {freshExamples.length ? (
                  <optgroup label="Examples">
                    {freshExamples.map((x) => (
                      <option key={x} value={x}>
                        {x}
                      </option>
                    ))}
                  </optgroup>
                ) : null}
                {skills.length ? (
                  <optgroup label="Your skills">
                    {skills.map((x) => (
                      <option key={x} value={x}>
                        Copy of {x}
                      </option>
                    ))}
                  </optgroup>
                ) : null}
              </select>
            </div>
            {error ? (
              <p className={`form-error ${styles.dialogError}`} role="alert">
                {error}
              </p>
            ) : null}
            <div className="actions">
              <Dialog.Close asChild>
                <button type="button" className="btn" disabled={isBusy}>
                  Cancel
                </button>
              </Dialog.Close>
              <button type="submit" className="btn btn-primary" disabled={isBusy || !name.trim()}>
                {isBusy ? 'Creating…' : 'Create'}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
