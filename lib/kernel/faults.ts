/**
 * Named fault points: places at commit boundaries where a crash test can stop
 * the kernel exactly (DBOS `debugpoint.ts`). A no-op unless enabled.
 *
 * Enabled by the composition root from `STAGECRAFT_FAULT=<name>:<n>` (the n-th
 * time the point is reached, the process SIGKILLs itself) or by a test with a
 * callback. Does not: read the environment itself (the kernel takes no
 * ambient input); see `faultsFromSpec`.
 */
export const FAULT_POINTS = [
  'before-step',
  'after-step-before-commit',
  'after-commit',
  'before-postprocessor',
  'after-artifact-persisted',
] as const;
export type FaultPoint = (typeof FAULT_POINTS)[number];

export type Faults = { hit(point: FaultPoint): void };

export const NO_FAULTS: Faults = { hit() {} };

/** `after-commit:3` → SIGKILL on the 3rd hit of after-commit; several joined by commas. */
export function faultsFromSpec(spec: string | undefined, kill: () => void): Faults {
  if (!spec) return NO_FAULTS;
  const targets = new Map<string, number>();
  for (const part of spec.split(',')) {
    const [name, n] = part.split(':');
    if (!(FAULT_POINTS as readonly string[]).includes(name)) {
      throw new Error(`unknown fault point "${name}"; known: ${FAULT_POINTS.join(', ')}`);
    }
    targets.set(name, Number(n ?? 1));
  }
  const counts = new Map<string, number>();
  return {
    hit(point) {
      const want = targets.get(point);
      if (want === undefined) return;
      const c = (counts.get(point) ?? 0) + 1;
      counts.set(point, c);
      if (c === want) kill();
    },
  };
}

/**
 * Thrown by in-process crash tests at a fault point: the runner lets it pass
 * without recording anything, exactly as if the process had died there.
 */
export class SimulatedCrash extends Error {
  constructor(point: string) {
    super(`simulated crash at ${point}`);
    this.name = 'SimulatedCrash';
  }
}

/** Throws SimulatedCrash the n-th time `point` is hit. */
export function crashAt(point: FaultPoint, n: number): Faults {
  let c = 0;
  return {
    hit(p) {
      if (p === point && ++c === n) throw new SimulatedCrash(`${p}#${n}`);
    },
  };
}

/**
 * Errors no step policy may absorb: the process is (as good as) gone, another
 * process drives the run, this process lets go of it, a user asked for the
 * run to be aborted, the store cannot be
 * reached, a code worker died with the spawner that launched it, the log
 * disagrees with the skill, or the store refused what the
 * run recorded (`record_refused`: the run fails, as it must, instead of a
 * step's policy carrying on past events that were never written). on_error
 * and tool-error outcomes must let these through.
 */
export function isInfrastructureError(e: unknown): boolean {
  if (e instanceof SimulatedCrash) return true;
  const code = (e as { code?: unknown } | null)?.code;
  return (
    code === 'run_claimed' ||
    code === 'determinism_violation' ||
    code === 'store_write_failed' ||
    code === 'record_refused' ||
    code === 'run_released' ||
    // a user asked for the run to be aborted: the step cut short did not fail
    code === 'abort_requested' ||
    code === 'store_unreachable' ||
    // the sandbox's spawner died mid-step: the run stays resumable, nothing in it failed
    code === 'sandbox_host_lost' ||
    // a replay or fork that cannot go on: it stops the run, it is never a step's own failure
    code === 'replay_diverged' ||
    code === 'fork_prefix_changed' ||
    code === 'fork_probe_reached'
  );
}
