// The floor of npm run bench:editor -- --browser: the same keystrokes into the same skill.md, timed
// the same way, on bare pages that have nothing of the studio — Monaco alone (its own minified
// build, with the studio's options, editor-options.ts) and a plain <textarea>. The "result" of a key
// there is the text changed (the page marks `stagecraft:analysis-drawn` on the model's change, or on
// the textarea's input event), so a sample is keydown to the frame that shows the typed letter: what
// the browser and Monaco cost on their own, below which the studio cannot go.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { OPTIONS } from '../components/editor/editor-options';

const MONACO_MIN = path.resolve('node_modules/monaco-editor/min');
const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf', '.html': 'text/html' };
/** the mark the studio sets when a keystroke's analysis is applied; the floor pages set it when the text changes */
const DRAWN = 'stagecraft:analysis-drawn';

/** the size of the studio's editor at the bench's 1440×900 viewport (its left pane, under the toolbar and tabs) */
const EDITOR_BOX = { width: 700, height: 700 };

const monacoPage = (text: string) => `<!doctype html><html><head><meta charset="utf-8">
<style>html,body{margin:0;font-family:system-ui,sans-serif}#ed{width:${EDITOR_BOX.width}px;height:${EDITOR_BOX.height}px}</style></head>
<body><div id="ed"></div>
<script src="/vs/loader.js"></script>
<script>
require.config({ paths: { vs: '/vs' } });
require(['vs/editor/editor.main'], function () {
  const model = monaco.editor.createModel(${JSON.stringify(text)}, 'yaml', monaco.Uri.parse('file:///floor/skill.md'));
  const editor = monaco.editor.create(document.getElementById('ed'), Object.assign({}, ${JSON.stringify(OPTIONS)}, { model: model, theme: 'vs' }));
  model.onDidChangeContent(function () { performance.mark('${DRAWN}'); performance.clearMarks('${DRAWN}'); });
  window.floorReady = true;
});
</script></body></html>`;

const textareaPage = (text: string) => `<!doctype html><html><head><meta charset="utf-8">
<style>html,body{margin:0}textarea{width:${EDITOR_BOX.width}px;height:${EDITOR_BOX.height}px;font:13px/19px ui-monospace,monospace}</style></head>
<body><textarea id="ed" spellcheck="false">${text.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</textarea>
<script>
document.getElementById('ed').addEventListener('input', function () { performance.mark('${DRAWN}'); performance.clearMarks('${DRAWN}'); });
window.floorReady = true;
</script></body></html>`;

export type FloorServer = { url: string; close(): Promise<void> };

/** Serves the two bare pages (`/monaco.html`, `/textarea.html`) and Monaco's minified build (`/vs/…`). */
export async function startFloor(text: string, port = 0): Promise<FloorServer> {
  const pages: Record<string, string> = { '/monaco.html': monacoPage(text), '/textarea.html': textareaPage(text) };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://floor');
    const page = pages[url.pathname];
    if (page) return void res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    const file = path.join(MONACO_MIN, path.normalize(url.pathname).replace(/^[/\\]+/, ''));
    if (!file.startsWith(`${MONACO_MIN}${path.sep}`)) return void res.writeHead(404).end();
    let body: Buffer;
    try {
      body = readFileSync(file);
    } catch {
      return void res.writeHead(404).end();
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${bound}`, close: () => new Promise((r) => server.close(() => r())) };
}
