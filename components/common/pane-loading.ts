// How a pane says it is loading (the editor, the diagram): the same padding and muted colour, so the
// words sit where the pane's first line will.
import type { CSSProperties } from 'react';

export const PANE_LOADING_STYLE: CSSProperties = { padding: 16, color: 'var(--text-3)' };
