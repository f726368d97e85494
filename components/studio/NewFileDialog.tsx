'use client';
// Adding a file to the bundle: a code module, a model script, data.
import * as Dialog from '@radix-ui/react-dialog';
import { useState } from 'react';
import { newFilePathProblem } from './new-file-path';

type Props = { open: boolean; onOpenChange(o: boolean): void; existing: string[]; onCreate(path: string): void };

export function NewFileDialog({ open, onOpenChange, existing, onCreate }: Props) {
  const [path, setPath] = useState('');
  const problem = newFilePathProblem(path, existing);
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!path || problem) return;
    onCreate(path);
    setPath('');
    onOpenChange(false);
  };
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title asChild>
            <h2>New file</h2>
          </Dialog.Title>
          <Dialog.Description>A file of the bundle: a Python or Node module, a model script, data. Its path is relative to the bundle.</Dialog.Description>
          <form onSubmit={submit}>
            <div className="field">
              <label htmlFor="new-file-path">Path</label>
              <input id="new-file-path" className="input" value={path} onChange={(e) => setPath(e.target.value.trim())} placeholder="rendering.py" autoFocus />
              {problem ? <p className="form-error">{problem}</p> : null}
            </div>
            <div className="actions">
              <Dialog.Close asChild>
                <button type="button" className="btn">
                  Cancel
                </button>
              </Dialog.Close>
              <button type="submit" className="btn btn-primary" disabled={!path || problem !== null}>
                Add file
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
