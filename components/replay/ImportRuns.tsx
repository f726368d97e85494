'use client';
// `Import` on the runs list: pick an exported run (a file `Export` or `stagecraft export` wrote),
// refused here past the server's cap before it is read, sent as it is (`POST /api/runs/import`),
// where every hash and the format are checked before anything is written. Says what was imported —
// or that the same run was here already (unchanged) — with a link to each, or the server's reason
// for refusing the file (a changed byte, a wrong hash, a newer format, a different run of that id).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useRef, useState } from 'react';
import { MAX_IMPORT_BYTES, routes } from '@/lib/api/routes';
import { callRoute } from '@/lib/client/api';
import type { ImportView } from '@/lib/views';
import { routeKey } from '@/lib/client/queries';
import { Spinner } from '@/components/common/Spinner';
import { useHydrated } from '@/components/common/use-hydrated';
import styles from './Replay.module.css';
import { plural } from '@/lib/kernel/plural';
import { importRefusedText } from './import-words';

const MB = 1024 * 1024;

function importSummary(view: ImportView, file: string): string {
  const added = view.imported.filter((r) => r.status === 'imported').length;
  const same = view.imported.length - added;
  const runs = (n: number) => plural(n, 'run');
  if (!added) return `Nothing new in ${file}: ${same === 1 ? 'the run is' : 'the runs are'} here already, unchanged.`;
  return `Imported ${runs(added)} from ${file}${same ? `; ${runs(same)} here already, unchanged` : ''}.`;
}

export function ImportRuns() {
  const router = useRouter();
  const client = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<string | null>(null);
  const [refused, setRefused] = useState<string | null>(null);
  // disabled until hydrated: a click on the server's HTML reaches no handler and is lost (components/common/use-hydrated.ts)
  const hydrated = useHydrated();
  const upload = useMutation({
    mutationFn: (text: string) => callRoute(routes.importRuns, { body: text }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: routeKey(routes.listRuns) });
      router.refresh();
    },
  });

  const pick = async (picked: File) => {
    upload.reset();
    setFile(picked.name);
    if (picked.size > MAX_IMPORT_BYTES) {
      setRefused(`${picked.name} is ${(picked.size / MB).toFixed(1)} MB; an exported run can be at most ${MAX_IMPORT_BYTES / MB} MB. Nothing was imported.`);
      return;
    }
    setRefused(null);
    upload.mutate(await picked.text());
  };

  const error = refused ?? (upload.error ? importRefusedText(file, upload.error.message) : null);
  return (
    <div className={styles.importBox}>
      <button type="button" className="btn" onClick={() => input.current?.click()} disabled={!hydrated || upload.isPending} title="Add a run exported from Stagecraft (a .json file)">
        Import
      </button>
      <input
        ref={input}
        type="file"
        accept=".json,application/json"
        hidden
        aria-label="Exported run file"
        onChange={(e) => {
          const picked = e.target.files?.[0];
          e.target.value = ''; // the same file can be picked again
          if (picked) void pick(picked);
        }}
      />
      {upload.isPending ? (
        <p className={styles.working} role="status">
          <Spinner />
          Checking and importing {file}…
        </p>
      ) : null}
      {error ? (
        <p className={`form-error ${styles.importNote}`} role="alert">
          {error}
        </p>
      ) : null}
      {upload.data ? (
        <div className={styles.importNote} role="status" aria-label="Import result">
          <p>{importSummary(upload.data, file ?? 'the file')}</p>
          <ul>
            {upload.data.imported.map((r) => (
              <li key={r.runId}>
                <Link href={`/runs/${encodeURIComponent(r.runId)}`} className={styles.mono}>
                  {r.runId}
                </Link>{' '}
                <span className={styles.dim}>
                  {r.skill} · version {r.version.slice(0, 8)} · {r.status}
                </span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
