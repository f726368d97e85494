/**
 * A command that drives a run on the store (`run`, `resume RUN`, `fork RUN`, `replay RUN`) stopped by SIGINT (Ctrl-C) or SIGTERM
 * (a CI job cancelled): the run stays recorded as it was — its finished steps kept, the one in flight
 * run again — and the command says so on stderr, with how to take it up or end it, before it dies of
 * the signal as before (exit 130 / 143). Before, it died saying nothing: the run id was nowhere.
 */
import { shellWord } from '../lib/kernel/shell-word';

const STOPS = ['SIGINT', 'SIGTERM'] as const;
type Stop = (typeof STOPS)[number];

/**
 * Calls `handler` once if the process is stopped by SIGINT (Ctrl-C) or SIGTERM (a cancelled CI job),
 * with the signal and the exit code a command stopped by it ends with (130, 143); the returned function
 * takes that back. `first`: before the listeners already there (the store's own closes it and raises
 * the signal again).
 */
export function onStop(handler: (signal: Stop, exitCode: 130 | 143) => void, { first = false } = {}): () => void {
  const handlers = STOPS.map((signal) => {
    const h = () => handler(signal, signal === 'SIGTERM' ? 143 : 130);
    if (first) process.prependOnceListener(signal, h);
    else process.once(signal, h);
    return [signal, h] as const;
  });
  return () => {
    for (const [signal, h] of handlers) process.off(signal, h);
  };
}

/**
 * What a stopped command's `--json` prints on stdout, as `run --queue --json` prints `{runId, status: "queued"}`:
 * the run it leaves (status `running`, as recorded), the signal, and the commands that take it up or end it.
 * Not an `{error}`: nothing failed, and the run goes on when resumed.
 */
export type StoppedRunJson = { runId: string; status: 'running'; stoppedBy: Stop; resume: string; abort: string } | NotRecordedJson;

/** stopped before the run's first event was written (`recordedBy`): there is no run to take up or end */
export type NotRecordedJson = { runId: string; status: 'not_recorded'; stoppedBy: Stop };

/**
 * says how to resume `runId` if the process is stopped; the returned function takes that back. `json`
 * (the command's --json): also prints, on stdout, the JSON object it returns for the stopped run's
 * (StoppedRunJson: a command whose answer has another shape, replay's, puts it in its own).
 * `recordedBy`: the store the command writes the run to, when the run is new: stopped before its first
 * event is written there (while the parent run is read, the version compiled), the command says that
 * nothing was recorded, not a resume of a run that no store holds.
 */
export function sayHowToResumeOnStop(
  runId: string,
  io: { err(line: string): void; out(line: string): void },
  json?: (stopped: StoppedRunJson) => unknown,
  recordedBy?: { onAppend?(fn: (runId: string, lastSeq: number) => void): () => void },
): () => void {
  let isRecorded = !recordedBy?.onAppend;
  const unhear = recordedBy?.onAppend?.((id) => {
    if (id === runId) isRecorded = true;
  });
  const unstop = onStop(
    (signal) => {
      unhear?.();
      if (!isRecorded) {
        io.err(`stagecraft: stopped by ${signal} before run ${runId} was recorded: nothing of it was kept, so there is nothing to resume; run the command again.`);
        if (json) io.out(JSON.stringify(json({ runId, status: 'not_recorded', stoppedBy: signal })));
      } else {
        const resume = `stagecraft resume ${shellWord(runId)}`;
        const abort = `stagecraft abort ${shellWord(runId)}`;
        io.err(`stagecraft: stopped by ${signal}: run ${runId} stays as it was, its finished steps kept; take it up with \`${resume}\`, or end it with \`${abort}\`.`);
        // --json: a consumer of stdout gets its JSON too (before, nothing: the run's id was on stderr alone)
        if (json) io.out(JSON.stringify(json({ runId, status: 'running', stoppedBy: signal, resume, abort })));
      }
      // the store's own hook (lib/store/open-store.ts) closes it and raises the signal again; without it, raise it here
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    },
    { first: true },
  );
  return () => {
    unhear?.();
    unstop();
  };
}
