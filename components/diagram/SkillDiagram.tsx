'use client';
// The skill drawn with React Flow: the phase graph from the entry, then the
// postprocessor chain as its own lane down to the caller contract. It follows
// the text (the node under the editor's cursor is highlighted; clicking a node
// or an item moves the cursor to its declaration), keeps its layout across
// edits and reloads (layout.ts), stays readable at 100 phases (fit, zoom,
// minimap), and, while the YAML does not parse, keeps the last good picture,
// greyed. Keys when the diagram has focus: F fits, A arranges.
import '@xyflow/react/dist/style.css';
import { Background, Controls, MarkerType, MiniMap, Panel, ReactFlow, ReactFlowProvider, applyNodeChanges, useNodesInitialized, useReactFlow, type Edge, type Node, type NodeChange } from '@xyflow/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { DiagramModel, DiagramNode } from '@/lib/skill/diagram';
import { itemsOf } from '@/lib/skill/diagram';
import { PHASE_WIDTH, boundsOf, layoutAll, sizeOf, stablePositions, structureKey, type Point } from './layout';
import { nodeTypes } from './nodes';
import styles from './SkillDiagram.module.css';

type Props = {
  /** the model to draw: the current one, or the last good one while `stale` */
  model: DiagramModel | null;
  /** the frontmatter does not parse right now: the picture is the last good one */
  stale: boolean;
  /** the node or item under the editor's cursor */
  highlight: string | null;
  /** a node or an item inside one was clicked */
  onSelect(id: string): void;
  /** where this skill's layout is remembered (localStorage) */
  storageKey: string;
};

const LANE_ID = '__lane:postprocessor';
const FIT = { padding: 0.15, maxZoom: 1 };
/** below this zoom a card's text is too small to read */
const READABLE_ZOOM = 0.55;

/** the layout remembered for a skill: every node's position, and which ones the user dragged */
type Remembered = { positions: Map<string, Point>; pinned: Set<string> };

function loadLayout(key: string): Remembered {
  try {
    const raw = JSON.parse(localStorage.getItem(key) ?? 'null') as { positions?: Record<string, Point>; pinned?: string[] } | null;
    return { positions: new Map(Object.entries(raw?.positions ?? {})), pinned: new Set(raw?.pinned ?? []) };
  } catch {
    return { positions: new Map(), pinned: new Set() };
  }
}

function storeLayout(key: string, layout: Remembered): void {
  try {
    localStorage.setItem(key, JSON.stringify({ positions: Object.fromEntries(layout.positions), pinned: [...layout.pinned] }));
  } catch {
    // a full or disabled storage only loses the remembered layout
  }
}

/** the card whose stage chips are the named ones (every phase draws the same stages): the first phase's */
const stagesCardOf = (model: DiagramModel): string | undefined => model.nodes.find((n) => n.kind === 'phase')?.id;

/** whether `id` names an item drawn inside node `n` (a stage, a preprocessor step, a nested step) */
const highlightsInside = (n: DiagramNode, id: string): boolean => itemsOf(n).some((s) => s.id === id);

function Diagram({ model, stale, highlight, onSelect, storageKey }: Props) {
  const flow = useReactFlow();
  const layout = useRef<Remembered | null>(null);
  const laidOut = useRef<string>('');
  const [nodes, setNodes] = useState<Node[]>([]);
  const [version, setVersion] = useState(0);

  if (layout.current === null && typeof window !== 'undefined') layout.current = loadLayout(storageKey);

  // positions follow the model's structure; an unchanged structure keeps them as they are (and a
  // remembered layout of the same structure is used as it is)
  const key = model ? structureKey(model) : '';
  if (model && key !== laidOut.current) {
    const l = layout.current ?? { positions: new Map(), pinned: new Set<string>() };
    const complete = model.nodes.every((n) => l.positions.has(n.id));
    if (!(laidOut.current === '' && complete)) l.positions = stablePositions(model, l.positions, l.pinned);
    layout.current = l;
    laidOut.current = key;
    storeLayout(storageKey, l);
  }

  // one select callback for the life of the diagram: node data that did not change stays the same object
  const selectRef = useRef(onSelect);
  selectRef.current = onSelect;
  const select = useCallback((id: string) => selectRef.current(id), []);
  // what each node of the last picture showed; a node that shows the same again is passed to React Flow as
  // the very object it holds now (with its measured size), so it re-renders only the nodes that changed
  const drawn = useRef(new Map<string, { sig: string; node: Node }>());
  const held = useRef(new Map<string, Node>());

  const built = useMemo(() => {
    if (!model) return [];
    const pos = layout.current?.positions ?? new Map<string, Point>();
    const out: Node[] = [];
    const chain = model.nodes.filter((n) => n.kind !== 'phase').map((n) => n.id);
    const box = boundsOf(chain, pos, model);
    if (box) {
      out.push({
        id: LANE_ID,
        type: 'lane',
        position: { x: box.x - 18, y: box.y - 30 },
        data: { label: 'postprocessor → caller contract', width: box.width + 36, height: box.height + 48 },
        selectable: false,
        draggable: false,
        focusable: false,
        zIndex: -1,
      });
    }
    const next = new Map<string, { sig: string; node: Node }>();
    const namer = stagesCardOf(model);
    for (const n of model.nodes) {
      const position = pos.get(n.id) ?? { x: 0, y: 0 };
      // the highlight as this node shows it: itself, one of its items, or nothing
      const shown = highlight !== null && (highlight === n.id || highlightsInside(n, highlight)) ? highlight : null;
      const sig = `${JSON.stringify(n)}|${shown}|${n.id === namer}|${position.x},${position.y}`;
      const kept = drawn.current.get(n.id);
      const node: Node =
        kept && kept.sig === sig
          ? (held.current.get(n.id) ?? kept.node)
          : {
              id: n.id,
              type: n.kind,
              position,
              data: { node: n, highlight: shown, onSelectItem: select, namesStages: n.id === namer },
              ariaLabel: n.label,
              // the card is drawn at the size the layout gave it (layout.ts), so cards never overlap
              style: sizeOf(n),
              draggable: true,
              selectable: true,
              focusable: true,
            };
      next.set(n.id, { sig, node });
      out.push(node);
    }
    drawn.current = next;
    return out;
    // `key` and `version` stand for the positions: a new structure, or a drag or arrange under the same one
  }, [model, key, highlight, select, version]);

  useEffect(() => setNodes(built), [built]);
  useEffect(() => {
    held.current = new Map(nodes.map((n) => [n.id, n]));
  }, [nodes]);

  const edges: Edge[] = useMemo(
    () =>
      (model?.edges ?? []).map((e) => ({
        id: e.id,
        source: e.source,
        target: e.target,
        label: e.label,
        type: 'smoothstep',
        className: styles[`edge_${e.kind}`],
        markerEnd: { type: MarkerType.ArrowClosed, width: 16, height: 16 },
        ariaLabel: `${e.source.replace(/^phase:/, 'phase ')} to ${e.target.replace(/^phase:/, 'phase ').replace(/^post:/, 'step ')}`,
        focusable: false,
      })),
    [model],
  );

  const onNodesChange = useCallback(
    (changes: NodeChange[]) => {
      setNodes((ns) => applyNodeChanges(changes, ns));
      const l = layout.current;
      if (!l) return;
      let moved = false;
      for (const c of changes) {
        if (c.type === 'position' && c.position && c.id !== LANE_ID) {
          l.positions.set(c.id, c.position);
          l.pinned.add(c.id);
          moved = true;
        }
        if (c.type === 'position' && c.dragging === false) setVersion((v) => v + 1);
      }
      if (moved) storeLayout(storageKey, l);
    },
    [storageKey],
  );

  const fit = useCallback(() => void flow.fitView({ ...FIT, duration: 200 }), [flow]);
  const arrange = useCallback(() => {
    if (!model) return;
    layout.current = { positions: layoutAll(model), pinned: new Set() };
    storeLayout(storageKey, layout.current);
    setVersion((v) => v + 1);
    setTimeout(fit, 30);
  }, [model, storageKey, fit]);

  // A large skill fitted whole is too small to read: the first view then starts at the entry, at a
  // readable zoom (Fit shows everything; the minimap shows where the view is).
  const initialized = useNodesInitialized();
  const framed = useRef(false);
  const wrapRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!initialized || framed.current || !model) return;
    framed.current = true;
    if (flow.getZoom() >= READABLE_ZOOM) return;
    const first = model.nodes[0] ? flow.getNode(model.nodes[0].id) : undefined;
    const height = wrapRef.current?.clientHeight ?? 600;
    if (first) void flow.setCenter(first.position.x + (first.width ?? PHASE_WIDTH) / 2, first.position.y + height / (2 * READABLE_ZOOM) - 24, { zoom: READABLE_ZOOM });
  }, [initialized, model, flow]);

  // the highlighted node is brought into view when it is off screen
  useEffect(() => {
    if (!highlight || !model) return;
    // an item is inside a card: a preprocessor step in its phase's, a nested step in its step's, a stage in the first phase's
    const id = highlight.startsWith('pre:')
      ? `phase:${highlight.split(':')[1]}`
      : highlight.startsWith('post:')
        ? highlight.split('/')[0]
        : highlight.startsWith('cap:')
          ? (stagesCardOf(model) ?? highlight)
          : highlight;
    const node = flow.getNode(id);
    if (!node) return;
    const { x, y, zoom } = flow.getViewport();
    const el = wrapRef.current;
    if (!el) return;
    const sx = node.position.x * zoom + x;
    const sy = node.position.y * zoom + y;
    if (sx < 0 || sy < 0 || sx > el.clientWidth - 40 || sy > el.clientHeight - 40) {
      void flow.setCenter(node.position.x + (node.measured?.width ?? 200) / 2, node.position.y + (node.measured?.height ?? 80) / 2, { zoom, duration: 200 });
    }
  }, [highlight, model, flow]);

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === 'f' || e.key === 'F') {
      e.preventDefault();
      fit();
    } else if (e.key === 'a' || e.key === 'A') {
      e.preventDefault();
      arrange();
    }
  };

  return (
    <div className={styles.wrap} data-stale={stale || undefined} onKeyDown={onKeyDown} ref={wrapRef}>
      {stale ? (
        <div className={styles.staleNote} role="status">
          The frontmatter does not parse right now: this is the last diagram that did.
        </div>
      ) : null}
      <ReactFlow
        className={styles.flow}
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        onNodesChange={onNodesChange}
        onNodeClick={(_, n) => n.id !== LANE_ID && select(n.id)}
        deleteKeyCode={null}
        selectionKeyCode={null}
        multiSelectionKeyCode={null}
        // the first picture is fitted before it is shown; later ones keep the user's viewport
        fitView
        fitViewOptions={FIT}
        minZoom={0.02}
        maxZoom={2}
        nodesConnectable={false}
        elementsSelectable
        proOptions={{ hideAttribution: false }}
      >
        <Background gap={18} size={1} color="#d5dae1" />
        <Controls showInteractive={false} showFitView={false} position="bottom-left" />
        <MiniMap pannable zoomable position="bottom-right" ariaLabel="Diagram overview" nodeColor={(n) => (n.type === 'phase' ? '#9aa9e8' : n.type === 'lane' ? '#eef1f6' : '#c6cfdb')} />
        <Panel position="top-right" className={styles.toolbar}>
          <button type="button" className="btn btn-sm" onClick={fit} title="Fit the diagram to the view (F)">
            Fit
          </button>
          <button type="button" className="btn btn-sm" onClick={arrange} title="Lay the diagram out afresh (A)">
            Arrange
          </button>
        </Panel>
      </ReactFlow>
    </div>
  );
}

export default function SkillDiagram(props: Props) {
  if (!props.model) {
    return (
      <div className={styles.empty}>
        <p>
          <b>The diagram appears as you write.</b>
        </p>
        <p>
          Give skill.md a frontmatter with an <code>entry</code> and a <code>graph</code> — for example <code>entry: answer</code> and{' '}
          <code>graph: {'{ answer: [] }'}</code> — and each phase is drawn here, then the postprocessor chain down to the caller contract.
        </p>
      </div>
    );
  }
  return (
    <ReactFlowProvider>
      <Diagram {...props} />
    </ReactFlowProvider>
  );
}
