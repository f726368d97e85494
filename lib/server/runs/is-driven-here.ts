/**
 * Whether this process drives a run now: it holds the run's claim (StorePort.holdsClaim). The run
 * page disables `Resume` then — a resume asked of the process already driving the run can only be
 * refused as claimed — and says why. A store that cannot tell answers false (Resume stays as it was).
 */
import type { RunView } from '../../views';
import type { Host } from '../host';

export function isDrivenHere(host: Pick<Host, 'store'>, runId: string): boolean {
  return host.store.holdsClaim?.(runId) ?? false;
}

/** the run's view as this process answers it: with whether it drives the run (a running one) */
export function withDrivenHere(host: Pick<Host, 'store'>, run: RunView): RunView {
  return run.status === 'running' ? { ...run, drivenHere: isDrivenHere(host, run.runId) } : run;
}
