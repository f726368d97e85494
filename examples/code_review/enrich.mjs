// Deterministic enrichment for code_review: which files the suggestions touch
// (and whether they exist), and who owns them according to OWNERS.

export function affected_files(value) {
  const seen = new Map();
  for (const r of value.resolved ?? []) {
    if (seen.has(r.file)) continue;
    const exists = typeof r.content === 'string';
    seen.set(r.file, { path: r.file, exists, ...(exists ? { lines: r.content.split('\n').length } : {}) });
  }
  const owners = new Set();
  for (const line of String(value.owners_file ?? '').split('\n')) {
    const [pattern, ...who] = line.trim().split(/\s+/);
    if (!pattern || pattern.startsWith('#')) continue;
    for (const f of seen.keys()) if (f.startsWith(pattern)) who.forEach((w) => owners.add(w));
  }
  const { resolved: _r, owners_file: _o, ...rest } = value;
  return { ...rest, affected_files: [...seen.values()], tagged_owners: [...owners].sort() };
}
