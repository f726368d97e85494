'use client';
// Deleting a skill: it leaves the list and its name is free again; its versions
// stay, so every run of it can still be inspected.
import * as Dialog from '@radix-ui/react-dialog';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useMutation } from '@tanstack/react-query';
import { useRef, type ReactNode } from 'react';
import { routes } from '@/lib/api/routes';
import { callRoute } from '@/lib/client/api';
import styles from './Home.module.css';

type Props = { name: string; versionCount: number; open: boolean; onOpenChange(open: boolean): void; children: ReactNode };

export function DeleteSkillDialog({ name, versionCount, open, onOpenChange, children }: Props) {
  const router = useRouter();
  const remove = useMutation({
    mutationFn: () => callRoute(routes.deleteSkill, { params: { name } }),
    onSuccess: () => {
      onOpenChange(false);
      router.refresh();
    },
  });
  const isBusy = remove.isPending;
  const error = remove.error?.message ?? null;
  const cancelRef = useRef<HTMLButtonElement>(null);

  const changeOpen = (isOpen: boolean) => {
    if (isBusy) return;
    if (isOpen) remove.reset();
    onOpenChange(isOpen);
  };

  const confirm = () => remove.mutate();

  return (
    <Dialog.Root open={open} onOpenChange={changeOpen}>
      <Dialog.Trigger asChild>{children}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog"
          onOpenAutoFocus={(e) => {
            // a destructive dialog opens on its safe choice
            e.preventDefault();
            cancelRef.current?.focus();
          }}
        >
          <Dialog.Title asChild>
            <h2>Delete {name}</h2>
          </Dialog.Title>
          <Dialog.Description>
            <strong>{name}</strong> leaves the skills list and its name becomes free. Its runs stay inspectable under{' '}
            <Link href={`/runs?skill=${encodeURIComponent(name)}`}>Runs</Link>, each with the exact version it ran
            {versionCount > 1 ? ` (all ${versionCount} versions are kept)` : ''}.
          </Dialog.Description>
          {error ? (
            <p className={`form-error ${styles.dialogError}`} role="alert">
              {error}
            </p>
          ) : null}
          <div className="actions">
            <Dialog.Close asChild>
              <button type="button" className="btn" disabled={isBusy} ref={cancelRef}>
                Cancel
              </button>
            </Dialog.Close>
            <button type="button" className="btn btn-primary btn-danger" onClick={confirm} disabled={isBusy}>
              {isBusy ? 'Deleting…' : 'Delete skill'}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
