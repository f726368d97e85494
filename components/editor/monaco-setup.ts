// Monaco, served from our own bundle (never a CDN): its workers, the skill.md
// language (YAML frontmatter, then Markdown), and monaco-yaml's completion and
// hover from the frontmatter's JSON Schema — with a link to the reference on
// every key. Client-only: imported by CodeEditor, which loads with ssr:false.
import * as monaco from 'monaco-editor';
import { loader } from '@monaco-editor/react';
import { configureMonacoYaml } from 'monaco-yaml';
import { skillFrontmatterSchema } from '@/lib/skill/schema';
import { schemaWithDocLinks } from '@/lib/skill/schema-doc-links';
import { registerSkillMdTokens } from './skill-md-language';
import { schemaSafeForNullKeys } from './yaml-schema';

type WorkerEnv = { getWorker(id: string, label: string): Worker };
const env = self as unknown as { MonacoEnvironment?: WorkerEnv };

env.MonacoEnvironment = {
  getWorker(_id: string, label: string) {
    switch (label) {
      case 'json':
        return new Worker(new URL('monaco-editor/language/json/json.worker.js', import.meta.url), { type: 'module' });
      case 'yaml':
        return new Worker(new URL('monaco-yaml/yaml.worker.js', import.meta.url), { type: 'module' });
      case 'typescript':
      case 'javascript':
        return new Worker(new URL('monaco-editor/language/typescript/ts.worker.js', import.meta.url), { type: 'module' });
      default:
        return new Worker(new URL('monaco-editor/editor/editor.worker.js', import.meta.url), { type: 'module' });
    }
  },
};

// monaco-yaml 5.5 still calls createWebWorker({moduleId, label, createData}), which monaco >= 0.55
// replaced by createWebWorker({worker}); adapt the old call (upstream: monaco-yaml PR #282).
type WorkerOpts = { worker?: Worker | Promise<Worker>; label: string; createData: unknown; host?: unknown; keepIdleModels?: boolean };
const createWebWorker = monaco.editor.createWebWorker as unknown as (o: WorkerOpts) => unknown;
(monaco.editor as unknown as { createWebWorker: unknown }).createWebWorker = (opts: WorkerOpts) => {
  if (opts.worker) return createWebWorker(opts);
  const worker = Promise.resolve(env.MonacoEnvironment!.getWorker('workerMain.js', opts.label)).then((w) => {
    w.postMessage('ignore');
    w.postMessage(opts.createData);
    return w;
  });
  return createWebWorker({ worker, label: opts.label, createData: opts.createData, host: opts.host, keepIdleModels: opts.keepIdleModels });
};

registerSkillMdTokens(monaco);

configureMonacoYaml(monaco, {
  enableSchemaRequest: false,
  // markers come from Stagecraft's own validator (the one the CLI and the server use)
  validate: false,
  format: { enable: false },
  completion: true,
  hover: true,
  schemas: [
    {
      uri: 'inmemory://stagecraft/skill-frontmatter.schema.json',
      fileMatch: ['**/skill.md'],
      schema: schemaSafeForNullKeys(schemaWithDocLinks(skillFrontmatterSchema, `${location.origin}/docs/skill-md`)) as never,
    },
  ],
});

loader.config({ monaco });
// the editor's API on the page, as in VS Code's web builds: for the console and for browser tests
(self as unknown as { monaco: typeof monaco }).monaco = monaco;

export { monaco };
