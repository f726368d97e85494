'use client';
// Starting a run from the studio: refused with a notice while skill.md has errors, the input is not
// right or there is no model; otherwise the working copy is saved (when it changed), the run
// started on that version, the input remembered, and the page moves to the run.
import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useCallback } from 'react';
import { routes } from '@/lib/api/routes';
import { ApiError, callRoute } from '@/lib/client/api';
import type { StartRunBody } from '@/lib/views';
import { rememberInput } from '../drafts';
import type { CheckedInput } from '../input-errors';
import { runRefusal, type Notice } from '../studio-logic';

type RunRequest = { errors: number; input: CheckedInput; inputText: string; model: string; save(): Promise<string | null> };

export function useRunLauncher(name: string, notify: (n: Notice) => void) {
  const router = useRouter();
  const starting = useMutation({
    mutationFn: (body: StartRunBody) => callRoute(routes.startRun, { body }),
    onError: (e) => {
      const where = e instanceof ApiError && e.details && Array.isArray(e.details.diagnostics) ? ' (see Problems)' : '';
      notify({ kind: 'error', text: `Not started: ${e.message}${where}` });
    },
  });

  const run = useCallback(
    async (r: RunRequest) => {
      if (starting.isPending) return;
      const refusal = runRefusal(r.errors, r.input, r.model);
      if (refusal) {
        notify({ kind: 'error', text: refusal });
        return;
      }
      const hash = await r.save();
      if (!hash) return;
      try {
        const { runId } = await starting.mutateAsync({ skill: name, version: hash, input: r.input.value ?? {}, model: r.model });
        rememberInput(name, r.inputText);
        router.push(`/runs/${runId}`);
      } catch {
        // said by onError
      }
    },
    [starting, notify, name, router],
  );

  // from the start until the page moves on (a started run stays "running" here: the page is leaving)
  return { run, isStarting: starting.isPending || starting.isSuccess };
}
