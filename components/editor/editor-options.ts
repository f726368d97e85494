// The studio's Monaco options, in a module of their own (no Monaco import at run time): the editor
// uses them, and the browser benchmark opens a bare Monaco with the same ones as its floor.
import type * as Monaco from 'monaco-editor';

// Typed text stays as typed: no auto-indent, no auto-closing, Enter never accepts a suggestion
// (Tab does). YAML is indentation-sensitive; an editor that re-indents what is typed or pasted
// changes its meaning.
export const OPTIONS: Monaco.editor.IStandaloneEditorConstructionOptions = {
  automaticLayout: true,
  minimap: { enabled: false },
  // no code-action lightbulb: monaco-yaml (validate off) has no fixes to offer, and asking for them
  // parsed the whole document on every cursor move
  lightbulb: { enabled: 'off' as Monaco.editor.ShowLightbulbIconMode },
  fontSize: 13,
  lineHeight: 19,
  fontFamily: "ui-monospace, 'SFMono-Regular', 'JetBrains Mono', Menlo, Consolas, 'Liberation Mono', monospace",
  tabSize: 2,
  insertSpaces: true,
  autoIndent: 'none',
  autoClosingBrackets: 'never',
  autoClosingQuotes: 'never',
  autoSurround: 'never',
  formatOnType: false,
  formatOnPaste: false,
  acceptSuggestionOnEnter: 'off',
  acceptSuggestionOnCommitCharacter: false,
  wordWrap: 'on',
  scrollBeyondLastLine: false,
  renderLineHighlight: 'line',
  fixedOverflowWidgets: true,
  hover: { delay: 350 },
  padding: { top: 8, bottom: 8 },
  // Folding and the sticky headers follow the indentation, computed here in a millisecond. Asked of
  // monaco-yaml's worker instead, every keystroke in a large skill.md brings back all its folding
  // ranges (~40 kB) and its whole outline (~300 kB), which the page then decodes and walks.
  folding: true,
  foldingStrategy: 'indentation',
  stickyScroll: { enabled: true, defaultModel: 'indentationModel' },
  // Work Monaco would do after each keystroke for nothing a skill's files have: no code lenses and no
  // colours to decorate, and the other places the word under the cursor occurs (found across the
  // whole model after every keystroke; Find does it when asked)
  codeLens: false,
  colorDecorators: false,
  occurrencesHighlight: 'off',
};
