export const CHROMIUM: string;
export const HEADLESS_SHELL: string;
export function headlessShellWanted(env?: NodeJS.ProcessEnv): string | null;
export function testBrowser(env?: NodeJS.ProcessEnv): string;
