// The studio's analysis, off the page's main thread: each message is an analysis of the working
// copy or a question about the key under the cursor (studio-analysis.ts), answered in order.
import { Analyzer, type AnalysisRequest } from './studio-analysis';

const analyzer = new Analyzer();
const scope = self as unknown as { onmessage: ((e: MessageEvent<AnalysisRequest>) => void) | null; postMessage(m: unknown): void };

scope.onmessage = (e) => {
  try {
    scope.postMessage(analyzer.handle(e.data));
  } catch (error) {
    // an analysis that throws is a bug of the validator: the page falls back to analysing itself
    scope.postMessage({ kind: 'failed', id: e.data.id, message: (error as Error).message });
  }
};
