// User capabilities of research_brief. Each receives the rung's context as
// plain JSON plus `with`, and returns a contribution (or nothing).

/** prompt-assembly: add the house style to every request. */
export function house_style(ctx) {
  return { system: `House style: ${ctx.with.tone ?? 'plain'} language, no superlatives. (phase ${ctx.phase}, round ${ctx.round})` };
}

/** pre-tool: deny any file/read under a denied prefix. */
export function path_guard(ctx) {
  const prefixes = ctx.with.deny_prefixes ?? [];
  const deny = {};
  ctx.requests.forEach((r, i) => {
    const p = String(r.args?.path ?? '');
    if (prefixes.some((pre) => p.startsWith(pre))) deny[i] = `reading ${p} is not allowed by path_guard`;
  });
  return Object.keys(deny).length ? { deny } : undefined;
}
