'use client';
// The skill drawn with React Flow: the phase graph from the entry, then the
// postprocessor chain as its own lane down to the caller contract. It follows
// the text (the node under the editor's cursor is highlighted; clicking a node
// or an item moves the cursor to its declaration), keeps its layout across
// edits and reloads (layout.ts), stays readable at 100 phases (fit, zoom,
// minimap), and, while the YAML does not parse, keeps the last good picture,
// greyed. Keys when the diagram has focus: F fits, A arranges.
import '@xyflow/react/dist/style.css';
import { Background, Controls, MarkerType, MiniMap, Panel, ReactFlow, ReactFlowProvider, applyNodeChanges, getViewportForBounds, useNodesInitialized, useReactFlow, useStore, useStoreApi, type Edge, type Node, type NodeChange, type Viewport } from '@xyflow/react';
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { DiagramModel, DiagramNode } from '@/lib/skill/diagram';
import { itemsOf } from '@/lib/skill/diagram';
import { PHASE_WIDTH, boundsOf, layoutAll, sizeOf, stablePositions, structureKey, type Point } from './layout';
import { CardNodes } from './card-nodes';
import { DiagramLoading } from './DiagramLoading';
import { drawnBounds, edgeTypes } from './edges';
import { edgeName } from './edge-names';
import { useEdgeWrappersUnnamed } from './use-edge-wrappers';
import { CardNodesSource, nodeTypes, SelectDeclaration } from './nodes';
import { nodeSetKey, sameView } from './view';
import styles from './SkillDiagram.module.css';

type Props = {
  /** the model to draw: the current one, or the last good one while `stale` */
  model: DiagramModel | null;
  /** the frontmatter does not parse right now: the picture is the last good one */
  stale: boolean;
  /** skill.md's frontmatter does not parse (with no model, the empty state says so) */
  isUnreadable?: boolean;
  /** the node or item under the editor's cursor */
  highlight: string | null;
  /** where the skill's last run failed: a card and an item inside it, drawn failed */
  failed?: { runId: string; at: string; nodeId: string | null; itemId: string | null } | null;
  /** a node or an item inside one was picked (clicked, or Enter on a focused node): its declaration */
  onSelect(at: { line: number; column: number }): void;
  /** where this skill's layout is remembered (localStorage) */
  storageKey: string;
};

const LANE_ID = '__lane:postprocessor';
/**
 * room above the top card, in screen px: the Fit/Arrange toolbar sits there, and an edge looping back
 * to the entry that cannot go around the side of the cards (edges.tsx) comes into it from above (a
 * smoothstep edge turns 20 flow px over its target, 20 px at the largest fitted zoom, 1). A fraction
 * of the view (0.15 was ~7% a side) left a loop at 1440 px drawn against the view's top edge,
 * looking cut off. A loop around the side is in the fitted box itself (drawnBounds).
 */
const TOP_ROOM_PX = 56;
const FIT = { padding: { top: `${TOP_ROOM_PX}px`, bottom: '32px', x: '32px' }, maxZoom: 1 } as const;
/**
 * how far the view zooms out, Fit included: Fit shows every card however many there are (the editor
 * benchmark's 100 phases and 50 steps stand about 31,000 px tall: at 0.02, the least before, a 440 px
 * pane showed about half of them, the entry and the contract cut off)
 */
const MIN_ZOOM = 0.005;
// Props React Flow hands to every node (and every minimap node) are kept the same objects from one
// render to the next: a new function or object there redraws all 150 cards of a large skill.
const PRO_OPTIONS = { hideAttribution: false };
const minimapColor = (n: Node): string => (n.type === 'phase' ? '#9aa9e8' : n.type === 'lane' ? '#eef1f6' : '#c6cfdb');
/** below this zoom a card's text is too small to read: a skill fitted smaller opens at its entry instead */
const READABLE_ZOOM = 0.55;
/**
 * the zoom a skill too large to fit readably opens at, around its entry: a card's 12 px text drawn at
 * 9.6 px (at READABLE_ZOOM, 6.6 px: a person could tell the cards apart, not read them)
 */
const OPENING_ZOOM = 0.8;
/** how long the picture stays hidden behind "Loading the diagram…" at most, if React Flow never finishes measuring its cards */
const SHOW_UNFRAMED_AFTER_MS = 10_000;

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

/** the positions of one structure of the model (`key`), and which nodes the user placed by hand */
type Layout = { key: string } & Remembered;

/**
 * a drawn node, with the signature of what React Flow has of it: its kind, name, size and marks. What
 * the card shows inside is not in it: a card reads its node itself (card-nodes.ts), so a node whose
 * signature is unchanged is kept as it is even when its card's content changes.
 */
type Drawn = Node & { data: { sig: string } };

/**
 * The positions for the model's structure `key`: the remembered ones as they are when they cover a
 * first picture, else each kept node where it was and the new ones placed around them (layout.ts).
 */
function layoutFor(model: DiagramModel, key: string, from: Remembered, isFirst: boolean): Layout {
  const complete = model.nodes.every((n) => from.positions.has(n.id));
  return { key, positions: isFirst && complete ? from.positions : stablePositions(model, from.positions, from.pinned), pinned: from.pinned };
}

/** whether two nodes are drawn at the same size (the layout's, layout.ts) */
const sameSize = (a: Node, b: Node): boolean => a.style?.width === b.style?.width && a.style?.height === b.style?.height;

/**
 * The nodes to draw; a node whose signature is unchanged is React Flow's own object (with its
 * measured size), and when none changed the list itself is kept: React Flow then has nothing to do.
 * A card that shows something new at the same size keeps its measured size: without one, React Flow
 * drops its handles and measures it again (a layout of the page, and a second render of the flow,
 * after every keystroke that changes a card). It still watches the card, so a real change of size
 * is measured all the same.
 */
function mergeNodes(prev: Node[], next: readonly Drawn[]): Node[] {
  const held = new Map(prev.map((n) => [n.id, n]));
  const out = next.map((n) => {
    const old = held.get(n.id) as Drawn | undefined;
    if (!old) return n;
    if (old.data?.sig === n.data.sig && old.position.x === n.position.x && old.position.y === n.position.y) return old;
    return old.measured && sameSize(old, n) ? { ...n, measured: old.measured } : n;
  });
  return out.length === prev.length && out.every((n, i) => n === prev[i]) ? prev : out;
}

/** the edges to draw, each kept as it was while it is the same (React Flow redraws only the changed ones) */
function mergeEdges(prev: Edge[], next: Edge[]): Edge[] {
  const sig = (e: Edge) => `${e.source}>${e.target}|${String(e.label ?? '')}|${e.className ?? ''}`;
  const held = new Map(prev.map((e) => [e.id, e]));
  const out = next.map((e) => {
    const old = held.get(e.id);
    return old && sig(old) === sig(e) ? old : e;
  });
  return out.length === prev.length && out.every((e, i) => e === prev[i]) ? prev : out;
}

function Diagram({ model, stale, highlight, failed = null, onSelect, storageKey }: Props) {
  const flow = useReactFlow();
  // read once: this component renders in the browser only (ssr: false)
  const [stored] = useState(() => loadLayout(storageKey));
  // positions follow the model's structure; an unchanged structure keeps them as they are (the key
  // is made once per model: a render that sets the nodes renders again at once)
  const key = useMemo(() => (model ? structureKey(model) : ''), [model]);
  const [layout, setLayout] = useState<Layout | null>(null);
  let current = layout;
  if (model && key !== layout?.key) {
    // a new structure: placed now, in this render (React's "adjust state when a prop changes")
    current = layoutFor(model, key, layout ?? stored, layout === null);
    setLayout(current);
  }
  // …and remembered after it is drawn
  useEffect(() => {
    if (layout) storeLayout(storageKey, layout);
  }, [layout, storageKey]);

  // what each card shows, told to the cards whose node changed once the new nodes are committed (in
  // the same task, before the frame): a card a new model adds draws the node it was made with until then
  const [cards] = useState(() => new CardNodes(model));
  useLayoutEffect(() => cards.set(model), [cards, model]);

  const positions = current?.positions;
  const built = useMemo((): Drawn[] => {
    if (!model) return [];
    const pos = positions ?? new Map<string, Point>();
    const out: Drawn[] = [];
    const chain = model.nodes.filter((n) => n.kind !== 'phase').map((n) => n.id);
    // the lane holds a postprocessor's steps: with none, the contract card (named "caller contract")
    // is drawn alone, not in a box titled for a postprocessor the skill does not have
    const box = model.nodes.some((n) => n.kind === 'step') ? boundsOf(chain, pos, model) : null;
    if (box) {
      const lane = { label: 'postprocessor → caller contract', width: box.width + 36, height: box.height + 48 };
      out.push({
        id: LANE_ID,
        type: 'lane',
        // its label at the foot (30 px there, 18 above the chain): at the top the edge into the chain ran through it
        position: { x: box.x - 18, y: box.y - 18 },
        data: { ...lane, sig: JSON.stringify(lane) },
        selectable: false,
        draggable: false,
        focusable: false,
        // a drawn box like the edges: named for a screen reader (its label text inside is hidden from it)
        ariaRole: 'img',
        // not its drawn words: a name holding `caller contract` would make that node's name (a contract) find two
        ariaLabel: 'postprocessor lane',
        zIndex: -1,
      });
    }
    const namer = stagesCardOf(model);
    for (const n of model.nodes) {
      const position = pos.get(n.id) ?? { x: 0, y: 0 };
      // the highlight as this node shows it: itself, one of its items, or nothing
      const shown = highlight !== null && (highlight === n.id || highlightsInside(n, highlight)) ? highlight : null;
      // the last run's failure, as this node shows it: itself, one of its items, or nothing
      const isFailed = failed?.nodeId === n.id;
      const failedItem = failed?.itemId && highlightsInside(n, failed.itemId) ? failed.itemId : null;
      const failedAt = isFailed || failedItem ? (failed?.at ?? null) : null;
      const size = sizeOf(n, isFailed);
      out.push({
        id: n.id,
        type: n.kind,
        position,
        data: { node: n, highlight: shown, namesStages: n.id === namer, failed: isFailed, failedItem, failedAt, sig: `${n.kind}|${n.label}|${size.width}x${size.height}|${shown}|${n.id === namer}|${isFailed}|${failedItem}|${failedAt}` },
        ariaLabel: isFailed ? `${n.label} failed` : n.label,
        // the card is drawn at the size the layout gave it (layout.ts), so cards never overlap
        style: size,
        draggable: true,
        selectable: true,
        focusable: true,
      });
    }
    return out;
  }, [model, positions, highlight, failed]);

  // React Flow holds the nodes (it measures them and moves them while dragged); a new picture is
  // merged in when it is built, keeping the nodes that show the same as they are
  const [nodes, setNodes] = useState<Node[]>([]);
  const [merged, setMerged] = useState<Drawn[] | null>(null);
  if (merged !== built) {
    setMerged(built);
    setNodes((prev) => mergeNodes(prev, built));
  }

  // a keystroke that changes a card keeps the model's edges (the studio's patch carries them over
  // as they were): the edges are not built, compared or handed to React Flow again for it
  const modelEdges = model?.edges;
  const builtEdges: Edge[] = useMemo(
    () =>
      (modelEdges ?? []).map((e) => ({
        id: e.id,
        source: e.source,
        target: e.target,
        label: e.label,
        // down the picture a smoothstep; back up it (a loop), around the side of the cards
        type: 'flow',
        className: styles[`edge_${e.kind}`],
        markerEnd: { type: MarkerType.ArrowClosed, width: 16, height: 16 },
        // both ends in the words their cards are named in: `from step 0 to caller contract`
        ariaLabel: edgeName(e.source, e.target),
        focusable: false,
      })),
    [modelEdges],
  );
  const [edges, setEdges] = useState<Edge[]>([]);
  const [edgesFrom, setEdgesFrom] = useState<Edge[] | null>(null);
  if (edgesFrom !== builtEdges) {
    setEdgesFrom(builtEdges);
    setEdges((prev) => mergeEdges(prev, builtEdges));
  }

  // where nodes are being dragged to; the layout takes them when the drag ends (not at every frame of it)
  const moving = useRef(new Map<string, Point>());
  const onNodesChange = useCallback(
    (changes: NodeChange[]) => {
      setNodes((ns) => applyNodeChanges(changes, ns));
      let settled = false;
      for (const c of changes) {
        if (c.type !== 'position' || c.id === LANE_ID) continue;
        if (c.position) moving.current.set(c.id, c.position);
        // a drag's last change says dragging: false; a move by the arrow keys says nothing
        if (c.dragging !== true) settled = true;
      }
      if (!settled || moving.current.size === 0) return;
      const moved = moving.current;
      moving.current = new Map();
      // where the user left a node is where it stays (pinned), remembered
      setLayout((l) => (l ? { ...l, positions: new Map([...l.positions, ...moved]), pinned: new Set([...l.pinned, ...moved.keys()]) } : l));
    },
    [setLayout],
  );

  // Fit: every card and every loop drawn around their side (React Flow's fitView counts the cards only)
  const store = useStoreApi();
  const edgesRef = useRef(edges);
  useEffect(() => {
    edgesRef.current = edges;
  });
  const fittedViewport = useCallback(() => {
    const { nodeLookup, width, height } = store.getState();
    const box = drawnBounds(nodeLookup, edgesRef.current);
    return box && width && height ? getViewportForBounds(box, width, height, MIN_ZOOM, FIT.maxZoom, FIT.padding) : null;
  }, [store]);
  // the model now, for the callbacks made once for the page's life (the framing, a node's declaration)
  const modelRef = useRef(model);
  useEffect(() => {
    modelRef.current = model;
  });
  // The view the diagram chose itself, and how: Fit (the button, Arrange) fits everything; the first
  // picture frames it (below). While the view is still that one, a change of the pane's size chooses
  // again the same way (the effect after these).
  const chosen = useRef<{ viewport: Viewport; how: 'fit' | 'frame' } | null>(null);
  const show = useCallback(
    (viewport: Viewport, how: 'fit' | 'frame', duration?: number) => {
      chosen.current = { viewport, how };
      void flow.setViewport(viewport, duration ? { duration } : undefined);
    },
    [flow],
  );
  const fit = useCallback(() => {
    const viewport = fittedViewport();
    if (viewport) show(viewport, 'fit', 200);
  }, [show, fittedViewport]);
  const arrange = useCallback(() => {
    if (!model) return;
    setLayout({ key: structureKey(model), positions: layoutAll(model), pinned: new Set() });
    setTimeout(fit, 30);
  }, [model, fit, setLayout]);

  // A large skill fitted whole is too small to read: the first view then starts at the entry, at a
  // readable zoom (Fit shows everything; the minimap shows where the view is).
  const wrapRef = useRef<HTMLDivElement>(null);
  useEdgeWrappersUnnamed(wrapRef);
  // whether the skill is too large to fit readably (it opened at its entry): its minimap shows in a
  // smaller pane than a skill's that fits (SkillDiagram.module.css)
  const [isLarge, setIsLarge] = useState(false);
  const frame = useCallback(() => {
    const fitted = fittedViewport();
    if (!fitted) return;
    setIsLarge(fitted.zoom < READABLE_ZOOM);
    if (fitted.zoom >= READABLE_ZOOM) {
      show(fitted, 'frame');
      return;
    }
    const first = modelRef.current?.nodes[0] ? flow.getNode(modelRef.current.nodes[0].id) : undefined;
    const { width, height: paneHeight } = store.getState();
    const height = wrapRef.current?.clientHeight ?? 600;
    if (!first) return;
    // flow.setCenter's viewport, kept to be told apart from one the user moved to
    const cx = first.position.x + (first.width ?? PHASE_WIDTH) / 2;
    const cy = first.position.y + (height / 2 - TOP_ROOM_PX) / OPENING_ZOOM;
    show({ x: width / 2 - cx * OPENING_ZOOM, y: paneHeight / 2 - cy * OPENING_ZOOM, zoom: OPENING_ZOOM }, 'frame');
  }, [flow, fittedViewport, show, store]);
  const initialized = useNodesInitialized();
  const framed = useRef(false);
  // until the first view is chosen the pane says it is loading, its picture hidden: React Flow hides
  // the cards while it measures them (an empty pane under the controls, seconds for 150 cards on a
  // slow machine), and the first view is chosen only in an effect after it shows them
  const [isFramed, setIsFramed] = useState(false);
  useEffect(() => {
    if (!initialized || framed.current || !model) return;
    framed.current = true;
    frame();
    setIsFramed(true);
  }, [initialized, model, frame]);
  // a measure that never ends (a pane never laid out) leaves the picture shown as it is, unframed,
  // rather than hidden behind the loading words for good; the first view is still chosen when it ends
  useEffect(() => {
    if (isFramed || !model) return;
    const shown = setTimeout(() => setIsFramed(true), SHOW_UNFRAMED_AFTER_MS);
    return () => clearTimeout(shown);
  }, [isFramed, model]);

  // The view is chosen again, the way it was, while it is still the one the diagram chose: a view the
  // user zoomed or panned since is theirs, kept (and from then on until Fit).
  const chooseAgain = useCallback(() => {
    const was = chosen.current;
    if (!was) return;
    if (!sameView(flow.getViewport(), was.viewport)) {
      chosen.current = null;
      return;
    }
    if (was.how === 'frame') return frame();
    const viewport = fittedViewport();
    if (viewport) show(viewport, 'fit');
  }, [flow, fittedViewport, show, frame]);

  // The pane changed size (the window resized, the splitter moved; React Flow measures its own pane):
  // chosen again for the new size — else at 800 px the cards fitted at 1400 px were cut off on the right.
  const paneWidth = useStore((s) => s.width);
  const paneHeight = useStore((s) => s.height);
  useEffect(() => {
    if (paneWidth && paneHeight) chooseAgain();
  }, [paneWidth, paneHeight, chooseAgain]);

  // Nodes were drawn or taken away (a phase or a step added or removed; not a keystroke that leaves
  // the picture's nodes as they were): chosen again once every node is measured — else a skill pasted
  // over the blank template kept the template's view, its entry and the next phase off the top.
  const nodeSet = useMemo(() => nodeSetKey(nodes), [nodes]);
  const drawnSet = useRef<string | null>(null);
  useEffect(() => {
    if (!initialized || nodeSet === drawnSet.current) return;
    const { nodeLookup } = store.getState();
    if (!nodes.every((n) => nodeLookup.get(n.id)?.measured.width)) return;
    const first = drawnSet.current === null;
    drawnSet.current = nodeSet;
    if (!first) chooseAgain();
  }, [nodeSet, nodes, initialized, store, chooseAgain]);

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

  /** a node's declaration, by its id (a click on a card, Enter on a focused one); one function for the page's life */
  const selectNode = useCallback(
    (id: string) => {
      const span = modelRef.current?.nodes.find((n) => n.id === id)?.span;
      if (span) onSelect(span);
    },
    [onSelect],
  );
  const onNodeClick = useCallback((_: unknown, n: Node) => void (n.id !== LANE_ID && selectNode(n.id)), [selectNode]);

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    // Enter on a focused card does what a click does (React Flow only selects it)
    const card = e.target instanceof HTMLElement && e.target.classList.contains('react-flow__node') ? e.target.dataset.id : undefined;
    if (e.key === 'Enter' && card && card !== LANE_ID) {
      e.preventDefault();
      selectNode(card);
    } else if (e.key === 'f' || e.key === 'F') {
      e.preventDefault();
      fit();
    } else if (e.key === 'a' || e.key === 'A') {
      e.preventDefault();
      arrange();
    }
  };

  return (
    <SelectDeclaration.Provider value={onSelect}>
      <CardNodesSource.Provider value={cards}>
        <div className={styles.wrap} data-stale={stale || undefined} data-loading={isFramed ? undefined : true} data-large={isLarge || undefined} onKeyDown={onKeyDown} ref={wrapRef}>
          {/* one status at a time: a stale picture's note is the one said while it loads (a draft whose frontmatter does not parse, brought back) */}
          {isFramed ? null : <DiagramLoading className={styles.loading} announce={!stale} />}
          {stale ? (
            <div className={styles.staleNote} role="status">
              The frontmatter does not parse right now: this is the last diagram that did.
            </div>
          ) : model?.entryAmiss ? (
            <div className={styles.staleNote} role="status">
              {entryAmissWords(model.entryAmiss.named)}
            </div>
          ) : model && !model.nodes.some((n) => n.kind === 'phase') ? (
            <div className={styles.staleNote} role="status">
              {NO_PHASE_WORDS}
            </div>
          ) : null}
          <ReactFlow
            className={styles.flow}
            // React Flow's wrapper is an `application`: named, as every control is
            aria-label="Diagram canvas"
            nodes={nodes}
            edges={edges}
            nodeTypes={nodeTypes}
            edgeTypes={edgeTypes}
            onNodesChange={onNodesChange}
            onNodeClick={onNodeClick}
            deleteKeyCode={null}
            selectionKeyCode={null}
            multiSelectionKeyCode={null}
            // the first picture is fitted before it is shown; later ones keep the user's viewport
            fitView
            fitViewOptions={FIT}
            minZoom={MIN_ZOOM}
            maxZoom={2}
            nodesConnectable={false}
            elementsSelectable
            proOptions={PRO_OPTIONS}
          >
            {/* the dotted grid is decoration: React Flow draws it as an svg with no name and takes no
                aria props for it, so it is hidden from assistive technology by a wrapper (the svg is
                placed against the canvas, not the wrapper) */}
            <div aria-hidden="true" className={styles.decoration}>
              <Background gap={18} size={1} color="#d5dae1" />
            </div>
            <Controls showInteractive={false} showFitView={false} position="bottom-left" />
            <MiniMap pannable zoomable position="bottom-right" ariaLabel="Diagram overview" nodeColor={minimapColor} />
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
      </CardNodesSource.Provider>
    </SelectDeclaration.Provider>
  );
}

/** why every phase is greyed when `entry` names none (the Problems list says it too) */
// a frontmatter with no phase drew the caller contract alone, as if that were the whole skill
const NO_PHASE_WORDS = 'skill.md declares no phase yet, so only the caller contract is drawn: add `graph` and `entry` (see Problems).';

function entryAmissWords(named: string | null): string {
  return `${named === null ? 'skill.md has no `entry`' : `\`entry: ${named}\` names no phase`}, so no phase is reached: every phase is greyed until \`entry\` names one of them (see Problems).`;
}

/** Redrawn only when what it is given changes (the studio re-renders on every keystroke). */
export default memo(function SkillDiagram(props: Props) {
  if (!props.model) {
    return (
      <div className={styles.empty}>
        {props.isUnreadable ? <p className={styles.emptyWhy}>The frontmatter does not parse right now: the diagram is drawn once it does (see Problems).</p> : null}
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
});
