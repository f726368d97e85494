/**
 * The frontmatter parsed again after an edit, reusing what did not change: the editor analyses
 * skill.md on every keystroke, and on a large skill the YAML parse of the whole frontmatter is most
 * of that work, while a keystroke changes one line of it.
 *
 * Owns: cutting the frontmatter into pieces that YAML reads the same alone as in the whole — each
 * top-level `key:` entry, and inside a top-level block mapping or sequence (`phases:`, `graph:`,
 * `postprocessor:`) each of its entries — parsing only the pieces whose text is new, and putting
 * the pieces' nodes together into one Document whose nodes, values and ranges are the whole
 * parse's. The invariant: the result is the whole parse's, or it is the whole parse. Whenever a
 * piece does not read cleanly alone (a syntax error or warning, more or less than one entry, an
 * anchor or alias, a repeated key, a directive or document marker, a top-level line that is not a
 * plain `key:`), the whole frontmatter is parsed as `parseFrontmatter` does, so every error is
 * reported exactly as before.
 *
 * Does not: judge anything (validate.ts does), or keep more than the last parse's pieces. A parser
 * is for one sequence of parses: the nodes of a reused piece are the previous parse's objects, their
 * ranges moved in place to where the piece is now (a piece after an edit moves by the edit's length).
 */
import { isAlias, isMap, isScalar, isSeq, parseDocument, YAMLMap, YAMLSeq } from 'yaml';
import type { Document, Node as YamlNode, Pair } from 'yaml';
import { frontmatterSource, parseFrontmatter, type ParsedFrontmatter, type SkillSplit } from './source';

const OPTIONS = { prettyErrors: false, keepSourceTokens: false } as const;

/** a top-level entry that can be read alone: a plain key at column 0 */
const TOP_KEY = /^([A-Za-z_][\w-]*)[ \t]*:(?=[ \t]|\r?$)/;
/** a line that is nothing to YAML: blank, or a comment */
const NOTHING = /^[ \t]*(#.*)?\r?$/;
/** a header whose value is the block below it: `key:` and at most a comment */
const HEADER_ONLY = /^[A-Za-z_][\w-]*[ \t]*:[ \t]*(#.*)?\r?$/;

type Range = [number, number, number];
type Ranged = { range?: Range | null };

/** A piece of the frontmatter parsed alone: its entries (pairs, or sequence items) and where their nodes now sit. */
type Piece = { entries: (Pair | YamlNode | null)[]; at: number };

/** The entries of one block mapping or sequence; an entry whose value is itself such a block (`phases:`) has it as `sub`. */
type Block = { kind: 'map' | 'seq'; entries: Entry[] };
type Entry = { start: number; end: number; firstLine: string; sub?: { headerEnd: number; block: Block } };

/**
 * Entries are parsed a few at a time (a parse has a fixed cost of its own): a group ends after an
 * entry whose first line hashes to 0 mod GROUP, so the groups stay the same when an entry is edited,
 * added or removed elsewhere.
 */
const GROUP = 4;
/** an entry shorter than this many lines is parsed whole (cutting it saves less than its parses cost) */
const SPLIT_LINES = 24;
function endsGroup(firstLine: string): boolean {
  let h = 2166136261;
  for (let i = 0; i < firstLine.length; i++) h = Math.imul(h ^ firstLine.charCodeAt(i), 16777619);
  return (h >>> 0) % GROUP === 0;
}

type Lines = { text: string; starts: number[]; at(i: number): string; offset(i: number): number };

function linesOf(text: string): Lines {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0 && i + 1 < text.length; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return {
    text,
    starts,
    at: (i) => text.slice(starts[i], i + 1 < starts.length ? starts[i + 1] - 1 : text.length),
    offset: (i) => (i < starts.length ? starts[i] : text.length),
  };
}

const indentOf = (line: string) => line.length - line.trimStart().length;

/**
 * The frontmatter as its top-level block, or null when it has something a piece cannot read the
 * way the whole does (then the whole is parsed).
 */
export function cutFrontmatter(text: string): Block | null {
  const lines = linesOf(text);
  const tops: number[] = [];
  const keys = new Set<string>();
  for (let i = 0; i < lines.starts.length; i++) {
    const line = lines.at(i);
    if (NOTHING.test(line) || line[0] === ' ') continue;
    if (/^-([ \t]|\r?$)/.test(line)) {
      if (tops.length === 0) return null; // the frontmatter is a list
      continue; // a list under the key before it, at its indentation: read with that entry
    }
    const m = TOP_KEY.exec(line);
    if (!m || keys.has(m[1])) return null;
    keys.add(m[1]);
    tops.push(i);
  }
  if (tops.length === 0) return null;
  const entries = tops.map((first, t) => entryOf(lines, first, t + 1 < tops.length ? tops[t + 1] : lines.starts.length, t === 0 ? 0 : lines.offset(first), 0));
  return { kind: 'map', entries };
}

/**
 * The mapping entry on lines `first` to `last` (exclusive) at indentation `indent`, with its value
 * cut into entries when it is a header (`key:`) over a clean block mapping or sequence.
 */
function entryOf(lines: Lines, first: number, last: number, start: number, indent: number): Entry {
  const entry: Entry = { start, end: lines.offset(last), firstLine: lines.at(first) };
  if (last - first < SPLIT_LINES || !HEADER_ONLY.test(entry.firstLine.slice(indent))) return entry;
  let childIndent = -1;
  let kind: 'map' | 'seq' = 'map';
  const children: number[] = [];
  const childKeys = new Set<string>();
  for (let i = first + 1; i < last; i++) {
    const line = lines.at(i);
    if (NOTHING.test(line)) continue;
    const n = indentOf(line);
    if (childIndent < 0) {
      childIndent = n;
      kind = line.slice(n).startsWith('-') ? 'seq' : 'map';
      if (n <= indent) return entry;
    }
    if (n < childIndent) return entry;
    if (n > childIndent) continue;
    const rest = line.slice(n);
    if (kind === 'seq') {
      if (!/^-([ \t]|\r?$)/.test(rest)) return entry;
    } else {
      const m = TOP_KEY.exec(rest);
      if (!m || childKeys.has(m[1])) return entry;
      childKeys.add(m[1]);
    }
    children.push(i);
  }
  if (children.length < 2) return entry; // nothing to gain
  const entries = children.map((c, k) => {
    const to = k + 1 < children.length ? children[k + 1] : last;
    return kind === 'map' ? entryOf(lines, c, to, lines.offset(c), childIndent) : { start: lines.offset(c), end: lines.offset(to), firstLine: lines.at(c) };
  });
  return { ...entry, sub: { headerEnd: lines.offset(children[0]), block: { kind, entries } } };
}

/**
 * moves every range under `node` by `delta`, in place: a range is the node's own array (nothing
 * keeps one past the parse that made it: readers take its numbers), and a keystroke near the top of
 * a large frontmatter moves every node below it, so no array is made per node
 */
function shift(node: unknown, delta: number): void {
  const r = (node as Ranged | null | undefined)?.range;
  if (r) {
    r[0] += delta;
    r[1] += delta;
    r[2] += delta;
  }
  if (isMap(node)) {
    for (const p of node.items) {
      shift(p.key, delta);
      shift(p.value, delta);
    }
  } else if (isSeq(node)) for (const item of node.items) shift(item, delta);
}

/** whether a node has an anchor or an alias anywhere under it (those reach across pieces) */
function hasAnchors(node: unknown): boolean {
  if (node === null || node === undefined || typeof node !== 'object') return false;
  if (isAlias(node) || (node as { anchor?: string }).anchor) return true;
  if (isMap(node)) return node.items.some((p) => hasAnchors(p.key) || hasAnchors(p.value));
  if (isSeq(node)) return node.items.some(hasAnchors);
  return false;
}

const rangeOf = (n: unknown): Range | undefined => (n as Ranged | null | undefined)?.range ?? undefined;

/** The frontmatter parsed afresh on each call, reusing the pieces whose text it parsed last time. */
export class FrontmatterParser {
  private pieces = new Map<string, Piece>();
  /** how the last parse was made (tests and the benchmark read it) */
  lastParse: { pieces: number; reused: number } | 'whole' = 'whole';

  parse(split: SkillSplit): ParsedFrontmatter {
    const made = this.parsePieces(split.frontmatter);
    if (made) return { doc: made, source: frontmatterSource(made, split) };
    this.pieces = new Map();
    this.lastParse = 'whole';
    return parseFrontmatter(split);
  }

  private parsePieces(text: string): Document.Parsed | null {
    const top = cutFrontmatter(text);
    if (!top) return null;
    const next = new Map<string, Piece>();
    const occurrences = new Map<string, number>();
    let reused = 0;
    /** the `count` entries of the text from `start` to `end`, their nodes at their place in the whole */
    const entries = (start: number, end: number, kind: 'map' | 'seq', count: number): (Pair | YamlNode | null)[] | undefined => {
      const body = `${kind}\u0000${text.slice(start, end)}`;
      // the same text twice (two equal steps) is two pieces: they must not share nodes
      const seen = (occurrences.get(body) ?? 0) + 1;
      occurrences.set(body, seen);
      const key = `${seen}\u0000${body}`;
      let piece = this.pieces.get(key);
      if (piece) {
        reused++;
        if (piece.at !== start) for (const e of piece.entries) shiftEntry(e, kind, start - piece.at);
        piece.at = start;
      } else {
        const read = readAlone(text.slice(start, end), kind, count);
        if (read === undefined) return undefined;
        for (const e of read) shiftEntry(e, kind, start);
        piece = { entries: read, at: start };
      }
      next.set(key, piece);
      return piece.entries;
    };
    /** the block's node: its entries read a group at a time, a header over a block of its own made the same way */
    const compose = (block: Block): YAMLMap | YAMLSeq | undefined => {
      const items: (Pair | YamlNode | null)[] = [];
      let group: Entry[] = [];
      const flush = (): boolean => {
        if (group.length === 0) return true;
        const got = entries(group[0].start, group[group.length - 1].end, block.kind, group.length);
        group = [];
        if (!got) return false;
        items.push(...got);
        return true;
      };
      for (const e of block.entries) {
        if (e.sub) {
          if (!flush()) return undefined;
          const header = entries(e.start, e.sub.headerEnd, 'map', 1)?.[0] as Pair | undefined;
          const value = compose(e.sub.block);
          if (!header || !value) return undefined;
          items.push(headerWith(header, value));
          continue;
        }
        group.push(e);
        if (endsGroup(e.firstLine) && !flush()) return undefined;
      }
      if (!flush() || items.length === 0) return undefined;
      const node = block.kind === 'map' ? new YAMLMap() : new YAMLSeq();
      node.items = items as never[];
      const firstAt = block.kind === 'map' ? rangeOf((items[0] as Pair).key) : rangeOf(items[0]);
      const lastEnd = endOf(items[items.length - 1], block.kind);
      if (!firstAt || !lastEnd) return undefined;
      // a block starts where its first entry does (a sequence at its first `-`) and ends where its last one does
      const blockStart = block.kind === 'seq' ? text.lastIndexOf('-', firstAt[0]) : firstAt[0];
      node.range = [blockStart, lastEnd[2], lastEnd[2]];
      return node;
    };
    const map = compose(top);
    if (!map) return null;
    const doc = parseDocument('', OPTIONS) as Document.Parsed;
    doc.contents = map as never;
    doc.range = [0, text.length, text.length];
    this.pieces = next;
    this.lastParse = { pieces: next.size, reused };
    return doc;
  }
}

/** the header's pair with `block` as its value (a fresh pair: the header's own is kept for its next reuse) */
function headerWith(header: Pair, block: YAMLMap | YAMLSeq): Pair {
  const pair = Object.assign(Object.create(Object.getPrototypeOf(header) as object) as Pair, header);
  pair.value = block;
  return pair;
}

/** where an entry ends: its value's range (a pair), or its own (a sequence item) */
function endOf(entry: Pair | YamlNode | null, kind: 'map' | 'seq'): Range | undefined {
  if (kind === 'seq') return rangeOf(entry);
  const pair = entry as Pair;
  return rangeOf(pair.value) ?? rangeOf(pair.key);
}

/**
 * The one entry of a piece parsed alone, with ranges from the piece's start; undefined when the
 * piece does not read cleanly alone (then the whole frontmatter is parsed).
 */
function readAlone(piece: string, kind: 'map' | 'seq', count: number): (Pair | YamlNode | null)[] | undefined {
  const doc = parseDocument(piece, OPTIONS);
  if (doc.errors.length || doc.warnings.length || hasAnchors(doc.contents)) return undefined;
  const c = doc.contents;
  if (kind === 'map') {
    if (!isMap(c) || c.flow || c.items.length !== count || !c.items.every((p) => isScalar(p.key))) return undefined;
    return c.items;
  }
  if (!isSeq(c) || c.flow || c.items.length !== count) return undefined;
  return c.items as (YamlNode | null)[];
}

function shiftEntry(e: Pair | YamlNode | null, kind: 'map' | 'seq', delta: number): void {
  if (kind === 'seq') return shift(e, delta);
  shift((e as Pair).key, delta);
  shift((e as Pair).value, delta);
}
