export const LONGEST_FIRST: string[];
export function longestFirst(files: string[]): string[];
export function concurrency(fallback: number): number;
