'use client';
// Renaming a skill: it keeps its versions and runs; its skill.md takes the new name.
import * as Dialog from '@radix-ui/react-dialog';
import { useRouter } from 'next/navigation';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { routes } from '@/lib/api/routes';
import { callRoute } from '@/lib/client/api';
import { skillNameProblem } from './skill-name';
import styles from './Home.module.css';

type Props = { name: string; open: boolean; onOpenChange(open: boolean): void; children: ReactNode };

export function RenameSkillDialog({ name, open, onOpenChange, children }: Props) {
  const router = useRouter();
  const [newName, setNewName] = useState(name);
  const rename = useMutation({
    mutationFn: (to: string) => callRoute(routes.renameSkill, { params: { name }, body: { name: to } }),
    onSuccess: () => {
      onOpenChange(false);
      router.refresh();
    },
  });
  const isBusy = rename.isPending;
  const [nameProblem, setNameProblem] = useState<string | null>(null);
  const error = nameProblem ?? rename.error?.message ?? null;
  const inputId = `rename-${name}`;

  const changeOpen = (isOpen: boolean) => {
    if (isBusy) return;
    if (isOpen) {
      setNewName(name);
      setNameProblem(null);
      rename.reset();
    }
    onOpenChange(isOpen);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const to = newName.trim();
    if (!to || to === name) return;
    // said here, in the dialog's words, before the server is asked
    setNameProblem(skillNameProblem(to));
    if (!skillNameProblem(to)) rename.mutate(to);
  };

  return (
    <Dialog.Root open={open} onOpenChange={changeOpen}>
      <Dialog.Trigger asChild>{children}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title asChild>
            <h2>Rename {name}</h2>
          </Dialog.Title>
          <Dialog.Description>The skill keeps its versions and runs; its skill.md takes the new name.</Dialog.Description>
          <form onSubmit={submit}>
            <div className="field">
              <label htmlFor={inputId}>New name</label>
              <input
                id={inputId}
                className={`input ${styles.mono}`}
                value={newName}
                onChange={(e) => setNewName(e.target.value)}
                onFocus={(e) => e.target.select()}
                autoComplete="off"
                spellCheck={false}
                aria-describedby={`${inputId}-hint`}
                aria-invalid={error ? true : undefined}
              />
              <span id={`${inputId}-hint`} className={styles.hint}>
                A lowercase letter, then lowercase letters, digits or _ (up to 64).
              </span>
              {error ? (
                <p className={`form-error ${styles.dialogError}`} role="alert">
                  {error}
                </p>
              ) : null}
            </div>
            <div className="actions">
              <Dialog.Close asChild>
                <button type="button" className="btn" disabled={isBusy}>
                  Cancel
                </button>
              </Dialog.Close>
              <button type="submit" className="btn btn-primary" disabled={isBusy || !newName.trim() || newName.trim() === name}>
                {isBusy ? 'Renaming…' : 'Rename'}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
