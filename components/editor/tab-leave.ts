// The way out of the editor by keyboard: in Monaco, Tab indents (YAML needs it), so a keyboard user
// who tabbed in could not tab on to the diagram, the input or Run. Esc then Tab (Shift+Tab) moves the
// focus to the next (previous) control of the page instead, as in other code editors on the web;
// any other key in between, and Tab indents again.
import type * as Monaco from 'monaco-editor';

const TABBABLE = 'a[href], button, input, select, textarea, [tabindex], [contenteditable="true"]';

function tabbable(el: HTMLElement): boolean {
  if (el.tabIndex < 0 || el.hasAttribute('disabled') || el.closest('[inert], [hidden]')) return false;
  const box = el.getBoundingClientRect();
  return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== 'hidden';
}

/** the control Tab (or Shift+Tab) reaches from outside `inside`, in document order (no positive tabindex here) */
export function tabbableAround(inside: HTMLElement, backwards: boolean): HTMLElement | null {
  const all = [...inside.ownerDocument.querySelectorAll<HTMLElement>(TABBABLE)].filter((el) => !inside.contains(el) && tabbable(el));
  const after = (el: HTMLElement) => (inside.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
  return backwards ? ([...all].reverse().find((el) => !after(el)) ?? null) : (all.find(after) ?? null);
}

/** Esc, then Tab or Shift+Tab, leaves `editor` for the next or previous control of the page */
export function installTabLeave(editor: Monaco.editor.IStandaloneCodeEditor, monaco: typeof Monaco): void {
  const armed = editor.createContextKey<boolean>('stagecraftTabLeaves', false);
  editor.onKeyDown((e) => {
    if (e.keyCode === monaco.KeyCode.Escape) armed.set(true);
    else if (e.keyCode !== monaco.KeyCode.Tab && e.keyCode !== monaco.KeyCode.Shift) armed.set(false);
  });
  editor.onDidBlurEditorText(() => armed.set(false));
  const leave = (backwards: boolean) => {
    armed.set(false);
    const node = editor.getDomNode();
    if (node) tabbableAround(node, backwards)?.focus();
  };
  editor.addCommand(monaco.KeyCode.Tab, () => leave(false), 'stagecraftTabLeaves');
  editor.addCommand(monaco.KeyMod.Shift | monaco.KeyCode.Tab, () => leave(true), 'stagecraftTabLeaves');
}
