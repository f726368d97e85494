'use client';
// `Export`: downloads the run as one JSON file with content hashes (`GET /api/runs/<id>/export`,
// sent as an attachment named after the run), for `stagecraft import` or another installation's
// Import. A button, so it reads as the action it is; the download goes through a link it clicks.
import { routes } from '@/lib/api/routes';
import { routeUrl } from '@/lib/client/api';
import { useHydrated } from '@/components/common/use-hydrated';

type Props = { runId: string; status: string };

export function ExportButton({ runId, status }: Props) {
  const isEnded = status !== 'running' && status !== 'queued';
  // disabled until hydrated: a click on the server's HTML reaches no handler (components/common/use-hydrated.ts)
  const hydrated = useHydrated();
  const download = () => {
    const a = document.createElement('a');
    a.href = routeUrl(routes.exportRun, { params: { id: runId } });
    a.download = `${runId}.json`;
    a.click();
  };
  return (
    <button type="button" className="btn" onClick={download} disabled={!hydrated || !isEnded} title="Download the run, its log and its skill version as one hashed JSON file">
      Export
    </button>
  );
}
