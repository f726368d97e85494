/**
 * Records for store tests and benchmarks: a run, an event, a stage trace, an
 * artifact, each valid and filled in, overridable field by field.
 */
import { randomUUID } from 'node:crypto';
import type { JsonObject } from '../../kernel/json';
import type { RunEvent, RunRecord, StageTrace, WorkspaceArtifact } from '../../kernel/ports';

export const T0 = 1_764_000_000_000; // a fixed epoch-ms origin: stores must round-trip integer ms exactly

export function makeRun(over: Partial<RunRecord> = {}): RunRecord {
  const id = over.id ?? `run-${randomUUID()}`;
  return {
    id,
    skillName: `skill-${randomUUID()}`,
    skillHash: 'a'.repeat(64),
    skillText: '---\nname: demo\n---\nSay hello. ünïcødé ✓ "quotes" \\ backslash\n',
    bundleDir: '/tmp/bundle',
    skillVersionId: null,
    input: { topic: 'hello', n: 3, nested: { list: [1, 'two', null, true, 2.5] } },
    model: 'scripted:model.yaml',
    status: 'running',
    output: null,
    error: null,
    report: null,
    kind: 'run',
    parentRunId: null,
    forkPoint: null,
    createdAt: T0,
    updatedAt: T0,
    ...over,
  };
}

export function ev(runId: string, seq: number, type = 'phase_started', data: JsonObject = { seq }): RunEvent {
  return { runId, seq, type, at: T0 + seq, data };
}

export function trace(runId: string, seq: number, over: Partial<StageTrace> = {}): StageTrace {
  return {
    id: `trace-${randomUUID()}`,
    runId,
    seq,
    round: 1,
    phase: 'draft',
    rung: 'post-model',
    capability: 'lint',
    stage: 'check',
    status: 'ok',
    effects: { asked: ['prompt.write'], granted: ['prompt.write'], missing: [] },
    contribution: { annotations: [{ kind: 'note', message: 'fine', severity: 'info' }] },
    notApplied: [],
    error: null,
    startedAt: T0 + 10,
    endedAt: T0 + 25,
    durationMs: 15,
    ...over,
  };
}

export function artifact(runId: string, path: string, content: WorkspaceArtifact['content'], at = T0): WorkspaceArtifact {
  return { runId, path, content, sha256: `sha-${JSON.stringify(content).length}`, size: JSON.stringify(content).length, createdAt: at };
}
