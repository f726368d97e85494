// What each card of the diagram draws, by node id, outside React Flow's nodes: a keystroke that
// changes what one card shows (a step's `into:`, a phase's tools) redraws that card alone, and
// React Flow's nodes, its store and everything subscribed to it (150 cards, the minimap, the edges)
// are not touched. React Flow's nodes change only for what it lays out and labels: a position, a
// size, an accessible name, a highlight. A model that keeps a node's object (the studio does for
// every node a keystroke did not change) tells that node's card nothing.
import type { DiagramModel, DiagramNode } from "@/lib/skill/diagram";

/** The cards' nodes, as the last model set has them; each card listens to its own id. */
export class CardNodes {
  private nodes = new Map<string, DiagramNode>();
  private listeners = new Map<string, Set<() => void>>();

  constructor(model: DiagramModel | null) {
    this.set(model);
  }

  /** the node drawn as card `id` (undefined: not in the model last set) */
  node = (id: string): DiagramNode | undefined => this.nodes.get(id);

  subscribe = (id: string, onChange: () => void): (() => void) => {
    let set = this.listeners.get(id);
    if (!set) this.listeners.set(id, (set = new Set()));
    set.add(onChange);
    return () => {
      set.delete(onChange);
      if (set.size === 0 && this.listeners.get(id) === set)
        this.listeners.delete(id);
    };
  };

  /** takes the model's nodes; the cards whose node is another object (or gone, or new) are told */
  set(model: DiagramModel | null): void {
    const before = this.nodes;
    const next = new Map((model?.nodes ?? []).map((n) => [n.id, n]));
    this.nodes = next;
    const told: (() => void)[] = [];
    for (const [id, set] of this.listeners)
      if (before.get(id) !== next.get(id)) told.push(...set);
    for (const l of told) l();
  }
}
