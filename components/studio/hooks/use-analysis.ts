'use client';
// The analysis of the working copy, kept off the page's main thread: the first one is made in the
// render that opens the page (so the server paints findings and the diagram), every later one in a
// web worker (analysis/analysis.worker.ts), the latest text only — keystrokes typed while one runs
// are folded into the next. A reply says only what changed: an unchanged diagram or findings list
// keeps its object, so nothing downstream redraws for it. While the frontmatter does not parse, the
// last good diagram is kept (and said to be stale). The key under the cursor is asked of the same
// worker. Where no worker can start, the same analysis runs here, shortly after the last keystroke.
//
// A keystroke comes by `analyze` (from the editor's change, not from a render of the page: the
// page is not rendered for a keystroke), and only the files it changed are sent to the worker.
//
// The diagram is not the page's state but a source of its own (`DiagramSource`): a reply that
// changes only cards renders only what draws them, not the whole studio. A reply is applied at once,
// in the task it arrives in (flushSync), so it is on the page by the next frame, not a task later.
// Where the page is cross-origin isolated, the worker also leaves its reply in shared memory
// (analysis/shared-reply.ts), and each animation frame while a request is out looks there first:
// a reply ready by then is applied in that frame's callback, before its style and layout, so the
// keystroke's letter and its diagram change are drawn in the same frame. The worker's message comes
// only after that frame (Chromium defers it behind the input's frame): whichever comes first is
// applied, once (by the request's id).
import { useCallback, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { KeyInfo } from '@/lib/skill/key-info';
import type { Files } from '@/lib/views';
import { DiagramStore, type DiagramSource } from '../analysis/diagram-store';
import { readSharedReply, sharedReplyBuffer, type SharedReplyNotice } from '../analysis/shared-reply';
import { Analyzer, analyzeForStudio, applyDiagramPatch, filesPatch, type AnalysisRequest, type AnalysisWorkerReply, type StudioAnalysis } from '../analysis/studio-analysis';

/** the performance mark of an analysis drawn (npm run bench:editor -- --browser times keystrokes by it) */
export const ANALYSIS_DRAWN = 'stagecraft:analysis-drawn';

/**
 * marks an analysis drawn, for observers only: the page's timeline keeps no entry per keystroke
 * (Monaco searches it by name at every key). Applied in an animation frame's callback, before that
 * frame's rendering, it is drawn by that very frame: `detail.frame` is that frame's time (a frame
 * begun before the mark's own time).
 */
function markDrawn(frame: number | undefined): void {
  performance.mark(ANALYSIS_DRAWN, frame === undefined ? undefined : { detail: { frame } });
  performance.clearMarks(ANALYSIS_DRAWN);
}

/** without a worker: the pause after a keystroke before the text is analysed again */
export const REANALYZE_MS = 25;

export type { DiagramSource };

export type Analysis = {
  current: Omit<StudioAnalysis, 'diagram'>;
  diagram: DiagramSource;
  /** the frontmatter does not parse now: the diagram drawn is the last good one */
  stale: boolean;
  /** what the key under the cursor does (skill.md's frontmatter only; null until the cursor is asked about) */
  keyInfo: KeyInfo | null;
  /** analyses these files now (a keystroke): the latest one wins over any still waiting */
  analyze(files: Files): void;
  /** asks what the key at this place of skill.md does (the answer comes as `keyInfo`) */
  askKey(line: number, column: number): void;
};

type State = { current: Omit<StudioAnalysis, 'diagram'>; stale: boolean; keyInfo: KeyInfo | null };

type WorkerMessage = AnalysisWorkerReply | SharedReplyNotice | { kind: 'failed'; id: number };

/** what the channel runs on: the browser's by default (a test gives its own) */
export type ChannelHost = {
  startWorker(): Worker;
  /** the shared buffer for the worker's replies, or null (not cross-origin isolated) */
  sharedBuffer(): SharedArrayBuffer | null;
  frame(callback: (time: number) => void): void;
};

const browserHost: ChannelHost = {
  startWorker: () => new Worker(new URL('../analysis/analysis.worker.ts', import.meta.url), { type: 'module' }),
  sharedBuffer: () => sharedReplyBuffer(),
  frame: (callback) => requestAnimationFrame(callback),
};

/**
 * One request at a time, to the worker or (without one) to an Analyzer here; what comes meanwhile
 * waits, the latest only. `onReply`'s `frame`: the time of the animation frame whose callback
 * applies it (a reply taken from shared memory), undefined for one applied in a task of its own.
 */
export class AnalysisChannel {
  private worker: Worker | null = null;
  private shared: SharedArrayBuffer | null = null;
  /** the id of the request the worker is answering (0: none) */
  private inFlight = 0;
  /** that request whole (not the patch sent): asked again of the analyser here if the worker fails it */
  private outstanding: AnalysisRequest | null = null;
  /** an animation frame is asked for, to look for the reply (one at a time, whatever the requests) */
  private looking = false;
  private local: Analyzer | null = null;
  private busy = false;
  private queuedAnalysis: AnalysisRequest | null = null;
  private queuedKey: AnalysisRequest | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** the files the analyser (the worker, or the one here) has: the next request sends what differs */
  private delivered: Files | null = null;

  constructor(
    private readonly onReply: (r: AnalysisWorkerReply, frame?: number) => void,
    private readonly host: ChannelHost = browserHost,
  ) {
    try {
      this.worker = host.startWorker();
      this.worker.onmessage = (e: MessageEvent<WorkerMessage>) => this.fromWorker(e.data);
      this.worker.onerror = () => this.fallBack();
      this.shared = host.sharedBuffer();
      if (this.shared) this.worker.postMessage({ kind: 'shared', buffer: this.shared });
    } catch {
      this.fallBack();
    }
  }

  send(req: AnalysisRequest): void {
    if (req.kind === 'analyze') this.queuedAnalysis = req;
    else this.queuedKey = req;
    this.pump();
  }

  close(): void {
    clearTimeout(this.timer);
    this.worker?.terminate();
    this.worker = null;
  }

  private pump(): void {
    if (this.busy) return;
    // an analysis first: a question about the key is answered on the latest text
    let next = this.queuedAnalysis ?? this.queuedKey;
    if (!next) return;
    if (next === this.queuedAnalysis) this.queuedAnalysis = null;
    else this.queuedKey = null;
    this.busy = true;
    this.outstanding = next;
    if (next.kind === 'analyze') {
      const whole = next.files;
      next = { ...next, ...filesPatch(this.delivered, whole) };
      this.delivered = whole;
    }
    if (this.worker) {
      this.inFlight = next.id;
      this.worker.postMessage(next);
      this.lookNextFrame();
    } else {
      // here, after a pause: keystrokes typed meanwhile replace this one
      const wait = next.kind === 'analyze' ? REANALYZE_MS : 0;
      this.timer = setTimeout(() => this.received((this.local ??= new Analyzer()).handle(next)), wait);
    }
  }

  /** an animation frame while a request is out: its reply, if the worker has left it in shared memory by now, is applied here (else the next frame looks again) */
  private lookInFrame = (time: number): void => {
    this.looking = false;
    if (!this.worker || !this.shared || !this.inFlight) return;
    const reply = this.takeShared(this.inFlight);
    if (reply === 'broken') return this.fallBack();
    if (!reply) return this.lookNextFrame();
    this.inFlight = 0;
    this.received(reply, time);
  };

  /** the reply `id` from shared memory: null when not there yet, 'broken' when what is there cannot be read */
  private takeShared(id: number): AnalysisWorkerReply | null | 'broken' {
    try {
      return readSharedReply<AnalysisWorkerReply>(this.shared!, id);
    } catch {
      return 'broken';
    }
  }

  private lookNextFrame(): void {
    if (!this.shared || this.looking) return;
    this.looking = true;
    this.host.frame(this.lookInFrame);
  }

  /** the worker's message: a reply, or the notice that it is in shared memory; one already applied (from shared memory) is dropped */
  private fromWorker(m: WorkerMessage): void {
    if (m.id !== this.inFlight) return;
    const reply = m.kind === 'shared' ? this.takeShared(m.id) : m;
    // a notice always follows its reply's writing: a reply not there, or unreadable, is the worker
    // failing this request (the channel must not wait for it): the analyser here answers it
    if (!reply || reply === 'broken') return this.fallBack();
    this.inFlight = 0;
    this.received(reply);
  }

  private received(reply: AnalysisWorkerReply | { kind: 'failed' }, frame?: number): void {
    this.busy = false;
    if (reply.kind !== 'failed') this.outstanding = null;
    if (reply.kind === 'failed') this.fallBack();
    else this.onReply(reply, frame);
    this.pump();
  }

  private fallBack(): void {
    this.worker?.terminate();
    this.worker = null;
    this.shared = null;
    this.inFlight = 0;
    // the analyser here starts with nothing: it is sent the whole bundle
    this.delivered = null;
    // the request the worker did not answer is asked here, unless a later one of its kind waits
    const unanswered = this.outstanding;
    this.outstanding = null;
    if (unanswered?.kind === 'analyze') this.queuedAnalysis ??= unanswered;
    else if (unanswered) this.queuedKey ??= unanswered;
    this.busy = false;
    this.pump();
  }
}

/** `files`: the files as the page renders them (the first analysis; any files not sent by `analyze` are sent when they render) */
export function useAnalysis(files: Files, opts: { name: string; knownSkills: readonly string[] }): Analysis {
  const { name, knownSkills } = opts;
  const [first] = useState(() => {
    const { source: _source, diagram, ...current } = analyzeForStudio(files, { knownSkills, skillName: name });
    return { store: new DiagramStore(diagram), current };
  });
  const store = first.store;
  const [state, setState] = useState<State>(() => ({ current: first.current, stale: store.stale(), keyInfo: null }));
  // the key's answer and the body's line as last set (committed or not): a reply that changes
  // neither queues no update at all (a queued update renders the studio, even to the same state)
  const latest = useRef<{ keyJson: string; bodyLine: number | undefined }>({ keyJson: 'null', bodyLine: state.current.bodyLine });
  const staleNow = useRef(state.stale);
  const channel = useRef<AnalysisChannel | null>(null);
  const ids = useRef(0);
  const sent = useRef<{ files: Files; knownSkills: readonly string[]; name: string } | null>(null);

  useEffect(() => {
    const c = new AnalysisChannel((r, frame) => {
      if (r.kind === 'key') {
        // the same answer as before (the cursor moved along the same key) changes nothing on the page
        const keyJson = JSON.stringify(r.keyInfo);
        if (keyJson === latest.current.keyJson) return;
        latest.current.keyJson = keyJson;
        setState((s) => ({ ...s, keyInfo: r.keyInfo }));
        return;
      }
      if (r.diagnostics === undefined && r.diagram === undefined && r.inputContract === undefined) {
        // nothing to redraw (a description, a prompt): the page is not rendered again for it
        if (latest.current.bodyLine !== r.bodyLine) setState((s) => ({ ...s, current: { ...s.current, bodyLine: r.bodyLine } }));
        latest.current.bodyLine = r.bodyLine;
        markDrawn(frame);
        return;
      }
      // every reply is applied, in order: each is a patch on the one before (the worker's model and
      // the page's stay one). Drawn now: what it changes is committed when flushSync returns.
      const bodyLineChanged = latest.current.bodyLine !== r.bodyLine;
      latest.current.bodyLine = r.bodyLine;
      flushSync(() => {
        if (r.diagram !== undefined) store.set(r.diagram === null ? null : applyDiagramPatch(store.current(), r.diagram));
        const stale = store.stale();
        // the studio renders only for what it shows itself: findings, the input contract, the body's line, a stale diagram
        if (r.diagnostics === undefined && r.inputContract === undefined && !bodyLineChanged && stale === staleNow.current) return;
        staleNow.current = stale;
        setState((s) => ({
          ...s,
          stale,
          current: { diagnostics: r.diagnostics ?? s.current.diagnostics, bodyLine: r.bodyLine, inputContract: r.inputContract === undefined ? s.current.inputContract : r.inputContract },
        }));
      });
      markDrawn(frame);
    });
    channel.current = c;
    // a new worker has analysed nothing yet
    sent.current = null;
    return () => {
      c.close();
      channel.current = null;
    };
  }, [store]);

  const settings = useRef({ knownSkills, name });
  useEffect(() => {
    settings.current = { knownSkills, name };
  });
  const analyze = useCallback((f: Files) => {
    const { knownSkills: known, name: skillName } = settings.current;
    sent.current = { files: f, knownSkills: known, name: skillName };
    channel.current?.send({ kind: 'analyze', id: ++ids.current, files: f, knownSkills: [...known], skillName });
  }, []);
  // files the page renders that were not analysed already (the first ones, a restored version…)
  useEffect(() => {
    const s = sent.current;
    if (s && s.files === files && s.knownSkills === knownSkills && s.name === name) return;
    analyze(files);
  }, [files, knownSkills, name, analyze]);

  const askKey = useCallback((line: number, column: number) => channel.current?.send({ kind: 'key', id: ++ids.current, line, column }), []);

  return { current: state.current, diagram: store, stale: state.stale, keyInfo: state.keyInfo, analyze, askKey };
}
