// Monaco's built-in Monarch definitions ship without type declarations.
declare module 'monaco-editor/languages/definitions/yaml/yaml.js' {
  export const language: unknown;
  export const conf: unknown;
}
