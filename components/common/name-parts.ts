// Where a long identifier may wrap (NameParts.tsx draws it): after its `_` or `-`, never inside a word.

/** the name in pieces, each ending at its `_` or `-` (kept with the piece before the break) */
export function nameParts(name: string): string[] {
  return name.match(/[^_-]*(?:[_-]+|$)/g)?.filter((p) => p !== '') ?? [name];
}
