// The studio's diagram outside React's state: the analysis replies patch it, and only what draws
// it subscribes (useSyncExternalStore), so a keystroke that changes cards renders the diagram, not
// the whole studio. While the frontmatter does not parse, the last good diagram is the one drawn.
import type { DiagramModel } from '@/lib/skill/diagram';

/** The diagram to draw: the current one, or the last good one while the frontmatter does not parse. */
export type DiagramSource = { get(): DiagramModel | null; subscribe(onChange: () => void): () => void };

/** The diagram of the last analysis, and the last good one; its readers are told when it changes. */
export class DiagramStore implements DiagramSource {
  private listeners = new Set<() => void>();
  private lastGood: DiagramModel | null;

  constructor(private model: DiagramModel | null) {
    this.lastGood = model;
  }

  /** the model of the last analysis (null: nothing to draw), the one the next patch applies to */
  current(): DiagramModel | null {
    return this.model;
  }

  get = (): DiagramModel | null => this.model ?? this.lastGood;

  /** the diagram is shown stale while the current one is null and a last good one is drawn */
  stale(): boolean {
    return this.model === null && this.lastGood !== null;
  }

  subscribe = (onChange: () => void): (() => void) => {
    this.listeners.add(onChange);
    return () => void this.listeners.delete(onChange);
  };

  set(model: DiagramModel | null): void {
    if (model === this.model) return;
    this.model = model;
    if (model) this.lastGood = model;
    for (const l of [...this.listeners]) l();
  }
}
