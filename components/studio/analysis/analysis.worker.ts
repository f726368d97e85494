// The studio's analysis, off the page's main thread: each message is an analysis of the working
// copy or a question about the key under the cursor (studio-analysis.ts), answered in order.
// Between the first analysis (the page opening) and the first keystroke, the worker primes the
// analyser in idle time (Analyzer.prime: the frontmatter cut into pieces, the analysis code run and
// compiled): unprimed, the first keystrokes' analyses take two to three times as long. Priming stops
// for good at the second analysis (the first keystroke): a keystroke never waits on more than one
// priming run. A question about the key (the cursor moving) only pauses it.
//
// Where the page shares memory with it (the first message is then the shared buffer), a reply is
// written there too and only a notice of it is posted: the page takes it in the keystroke's own
// animation frame (shared-reply.ts). A reply too large for the buffer is posted whole, as elsewhere.
import { replyMessage } from './shared-reply';
import { Analyzer, type AnalysisRequest } from './studio-analysis';

const analyzer = new Analyzer();
const scope = self as unknown as { onmessage: ((e: MessageEvent<AnalysisRequest | { kind: 'shared'; buffer: SharedArrayBuffer }>) => void) | null; postMessage(m: unknown): void };
let shared: SharedArrayBuffer | null = null;

/** priming runs, and the pause before each (the page is still opening: the worker leaves it the CPU) */
const PRIME_RUNS = 12;
const PRIME_PAUSE_MS = 40;
let analyses = 0;
let primed = 0;
let primeTimer: ReturnType<typeof setTimeout> | undefined;

function primeLater(): void {
  primeTimer = setTimeout(() => {
    primeTimer = undefined;
    try {
      if (!analyzer.prime()) return;
    } catch {
      return; // a priming run that throws is left to the real analysis to report
    }
    if (++primed < PRIME_RUNS) primeLater();
  }, PRIME_PAUSE_MS);
}

scope.onmessage = (e) => {
  if (e.data.kind === 'shared') {
    shared = e.data.buffer;
    return;
  }
  clearTimeout(primeTimer);
  primeTimer = undefined;
  if (e.data.kind === 'analyze') analyses++;
  try {
    scope.postMessage(replyMessage(shared, analyzer.handle(e.data)));
    if (analyses === 1 && primed < PRIME_RUNS) primeLater();
  } catch (error) {
    // an analysis that throws is a bug of the validator: the page falls back to analysing itself
    scope.postMessage({ kind: 'failed', id: e.data.id, message: (error as Error).message });
  }
};
