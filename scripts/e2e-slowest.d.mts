export function specTimes(report: unknown): { file: string; ms: number }[];
export function slowestLine(reports: unknown[], n?: number): string;
