// Which Chromium the browser tests drive. Both are Debian's builds of the same Chromium, never a
// downloaded browser:
//   - `chromium-headless-shell` (/usr/lib/chromium/chromium-headless-shell), Chromium's old headless
//     mode as a program of its own: no browser window's machinery behind each page. The browser
//     stage took about a quarter less CPU with it than with `chromium --headless` (the same 22 tests,
//     one at a time: 178 and 199 s of CPU against 234, 271 and 278 s; its browser process 26 s
//     against 79 s) on this suite's 2-core machine, where that stage is CPU-bound.
//   - `chromium` (/usr/bin/chromium): when the shell is not installed, and for the benches, whose
//     figures are a real browser's.
// CHROMIUM_PATH names the browser outright (the shell is then not looked for, unless
// CHROMIUM_HEADLESS_SHELL_PATH names one too); CHROMIUM_HEADLESS_SHELL_PATH moves the shell.
import { existsSync } from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';
export const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

/** the headless shell the tests would rather drive, or null when CHROMIUM_PATH alone chose the browser */
export function headlessShellWanted(env = process.env) {
  if (env.CHROMIUM_HEADLESS_SHELL_PATH) return env.CHROMIUM_HEADLESS_SHELL_PATH;
  return env.CHROMIUM_PATH ? null : HEADLESS_SHELL;
}

/** the program the browser tests launch: the headless shell when it is installed, else Chromium */
export function testBrowser(env = process.env) {
  const shell = headlessShellWanted(env);
  if (shell && existsSync(shell)) return shell;
  return env.CHROMIUM_PATH || CHROMIUM;
}
