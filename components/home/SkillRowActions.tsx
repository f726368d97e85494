'use client';
// Rename and Delete for one skill, each behind its own dialog. The buttons are
// named by their text; the row (its header cell is the skill's name) says which
// skill. No aria-label here holds the word "name": the New skill dialog's text
// box is the page's one thing labelled Name.
import { useState } from 'react';
import { RenameSkillDialog } from './RenameSkillDialog';
import { DeleteSkillDialog } from './DeleteSkillDialog';
import { useHydrated } from '@/components/common/use-hydrated';
import styles from './Home.module.css';

export function SkillRowActions({ name, versionCount }: { name: string; versionCount: number }) {
  const [open, setOpen] = useState<'rename' | 'delete' | null>(null);
  const onOpenChange = (which: 'rename' | 'delete') => (isOpen: boolean) => setOpen(isOpen ? which : null);
  // disabled until hydrated: a click on the server's HTML reaches no handler, the dialog did not open (components/common/use-hydrated.ts)
  const hydrated = useHydrated();
  return (
    <div className={styles.rowActions}>
      <RenameSkillDialog name={name} open={open === 'rename'} onOpenChange={onOpenChange('rename')}>
        <button type="button" className="btn btn-sm btn-ghost" disabled={!hydrated}>
          Rename
        </button>
      </RenameSkillDialog>
      <DeleteSkillDialog name={name} versionCount={versionCount} open={open === 'delete'} onOpenChange={onOpenChange('delete')}>
        <button type="button" className="btn btn-sm btn-ghost btn-danger" disabled={!hydrated}>
          Delete
        </button>
      </DeleteSkillDialog>
    </div>
  );
}
