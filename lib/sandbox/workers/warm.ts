// Imported by a TypeScript worker before it reports ready: its transform starts tsx's esbuild
// service then, so the service is part of the worker rather than something a step started.
export const warm: number = 1;
