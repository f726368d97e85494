/**
 * Every run that ends in this process is sent as OpenTelemetry spans, when
 * OTLP export is configured (lib/telemetry/otlp-export.ts): the CLI, the app
 * and the workers all come through here. The spans are read from the log once
 * the run has ended (lib/telemetry/run-spans.ts), so a run driven by several
 * processes in turn is sent whole, once, by the one that ended it.
 *
 * Sending never delays or fails a run: it happens in the background, and a
 * collector that is away costs one line on stderr (once per process). A CLI
 * command waits for what it sent (`flushTraces`) before it exits.
 */
import { TERMINAL_EVENTS } from '../../kernel/events';
import type { JsonObject } from '../../kernel/json';
import type { StorePort } from '../../kernel/ports';
import { runSpans } from '../../telemetry/run-spans';
import { exportSpans, shutdownExporters, traceSettings } from '../../telemetry/otlp-export';
import { runDrivers } from './run-drivers';
import { forTerminal } from '../../kernel/terminal-text';

const pending = new Set<Promise<void>>();
let warned = false;

function warnOnce(message: string): void {
  if (warned) return;
  warned = true;
  process.stderr.write(`stagecraft: traces: ${forTerminal(message)}\n`);
}

/**
 * Sends run `runId` if it has ended and `driver` (this process) drove its last part — a resume
 * that only answered a run someone else finished sends nothing again.
 */
export function traceRunEnd(host: { store: StorePort; env: Record<string, string | undefined> }, runId: string, driver?: JsonObject): void {
  const settings = traceSettings(host.env);
  if (!settings.enabled) {
    if (settings.problem) warnOnce(settings.problem);
    return;
  }
  const p = (async () => {
    const [run, events] = await Promise.all([host.store.getRun(runId), host.store.readEvents(runId)]);
    if (!run || !events.some((e) => TERMINAL_EVENTS.has(e.type))) return;
    const last = runDrivers(events).at(-1);
    if (driver && last && (last.pid !== driver.pid || last.host !== driver.host || last.worker !== (driver.worker ?? null))) return;
    await exportSpans(runSpans(run, events, await host.store.readTraces(runId)), settings, host.env);
  })()
    .catch((e: Error) => warnOnce(`could not send run ${runId}'s spans: ${e.message} (check OTEL_EXPORTER_OTLP_ENDPOINT)`))
    .finally(() => pending.delete(p));
  pending.add(p);
}

/** Waits for every trace being sent (a CLI command before it exits, a worker when it stops). */
export async function flushTraces(): Promise<void> {
  while (pending.size) await Promise.allSettled([...pending]);
  await shutdownExporters();
}
