/**
 * How much a caller may send: a run's input (`--input`, `POST /api/runs`) and
 * any request body. Large data belongs in the workspace, not in an input.
 */
export const MAX_INPUT_BYTES = 8 * 1024 * 1024;
export { MAX_JSON_DEPTH } from '../kernel/json-depth';
