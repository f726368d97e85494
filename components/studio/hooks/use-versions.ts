'use client';
// The skill's versions and the one the editor holds: the list (cached, refetched after a change),
// saving the working copy as a version, and restoring an older one (one server operation that
// makes it the latest again, recorded as a restore).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { routes } from '@/lib/api/routes';
import { callRoute } from '@/lib/client/api';
import { routeKey, routeQuery } from '@/lib/client/queries';
import type { Files, RestoredVersionView, VersionSummaryView } from '@/lib/views';
import { noteMade } from '../stale-page';
import { savedNotice, type Notice } from '../studio-logic';

export type Saved = { hash: string | null; files: Files; at: number | null };

export function useVersions(name: string, opened: { saved: Saved; versions: VersionSummaryView[] }, notify: (n: Notice) => void) {
  const client = useQueryClient();
  const [saved, setSaved] = useState<Saved>(opened.saved);
  const list = useQuery({ ...routeQuery(routes.listVersions, { params: { name } }), initialData: { versions: opened.versions } });
  const refresh = useCallback(() => void client.invalidateQueries({ queryKey: routeKey(routes.listVersions, { params: { name } }) }), [client, name]);

  const saving = useMutation({
    mutationFn: (files: Files) => callRoute(routes.saveVersion, { params: { name }, body: { files } }),
    onSuccess: (r, files) => {
      setSaved({ hash: r.version.hash, files, at: r.version.savedAt });
      noteMade(name, r.version.hash, r.version.savedAt);
      notify(savedNotice(r));
      refresh();
    },
    onError: (e) => notify({ kind: 'error', text: `Not saved: ${e.message}` }),
  });

  /** saves the files (unless they are the saved version): the version's hash, or null when it was not saved */
  const save = useCallback(
    async (files: Files, dirty: boolean): Promise<string | null> => {
      if (!dirty && saved.hash) {
        notify({ kind: 'info', text: `Nothing to save: this is version ${saved.hash.slice(0, 8)}.` });
        return saved.hash;
      }
      try {
        return (await saving.mutateAsync(files)).version.hash;
      } catch {
        return null;
      }
    },
    [saved.hash, saving, notify],
  );

  const restoring = useMutation({
    mutationFn: (hash: string) => callRoute(routes.restoreVersion, { params: { name, hash } }),
    onSuccess: (r: RestoredVersionView, hash) => {
      setSaved({ hash: r.version.hash, files: r.version.files, at: r.version.savedAt });
      noteMade(name, r.version.hash, r.version.savedAt);
      notify({ kind: 'ok', text: `Restored version ${hash.slice(0, 8)}: it is the latest again.` });
      refresh();
    },
    onError: (e) => notify({ kind: 'error', text: `Not restored: ${e.message}` }),
  });

  return {
    saved,
    versions: list.data.versions,
    save,
    isSaving: saving.isPending,
    /** restores a version; resolves with its files once it is the latest (null when it was not restored) */
    restore: (hash: string) => restoring.mutateAsync(hash).then((r) => r.version.files, () => null),
  };
}
