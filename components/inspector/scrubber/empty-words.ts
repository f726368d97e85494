/**
 * What the scrubber says of an empty transcript or workspace: "yet" only while the run goes on
 * after this event — at a run's end (its last event on an aborted run whose last visit never called
 * the model) nothing more is coming, and "No messages yet." read as if the page were still loading.
 */
import type { RunStateView } from '@/lib/views/inspector';

const ENDED = new Set(['completed', 'failed', 'aborted']);

export function emptyWords(state: Pick<RunStateView, 'status' | 'visit'>): { transcript: string; workspace: string } {
  if (!state.status || !ENDED.has(state.status)) return { transcript: 'No messages yet.', workspace: 'No artifacts yet.' };
  return { transcript: state.visit ? `No messages: visit ${state.visit} ended before any model turn.` : 'No messages: the run ended before any model turn.', workspace: 'No artifacts: the run ended before writing any.' };
}
