/**
 * What the API says of a request no route serves, from the route table (lib/api/routes.ts): a path
 * under /api/ (or /api itself) that is no route's is a 404, and a route's path asked with a method it
 * does not take a 405 naming the ones it does (with `Allow`). The proxy answers these before the router, whose own
 * answers were the 404 page's HTML and a 405 with no body at all: nothing that says what to send.
 *
 * Owns: matching a method and a path against the table. Does not: answer (the proxy does), or judge
 * who may ask (security.ts).
 */
import { routes } from '../../api/routes';
import { isApiPath } from './security';

type Unserved = { status: 404 | 405; code: string; message: string; allow?: string };

const TABLE = Object.values(routes).map((r) => ({ method: r.method as string, path: r.path as string, pattern: new RegExp(`^${r.path.replace(/:[A-Za-z_]\w*/g, '[^/]+')}$`), params: r.path.split(':').length - 1 }));

/** the request's problem when no route serves it; null when one does (HEAD is a GET's, OPTIONS any route's: the router answers both) */
export function unservedApiRequest(method: string, pathname: string): Unserved | null {
  if (!isApiPath(pathname)) return null;
  const matching = TABLE.filter((r) => r.pattern.test(pathname));
  // a named segment wins over a param, as in the router: /api/runs/import is the import's, not a run id's
  const fewest = Math.min(...matching.map((r) => r.params));
  const served = matching.filter((r) => r.params === fewest);
  if (!served.length) {
    return { status: 404, code: 'route_not_found', message: `No route of the API is at ${JSON.stringify(pathname.slice(0, 120))}: check the path against the API table of the README (GET /api/skills, GET /api/runs/<id>, …).` };
  }
  const methods = [...new Set(served.map((r) => r.method))];
  const allowed = [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'];
  if (allowed.includes(method.toUpperCase())) return null;
  return {
    status: 405,
    code: 'method_not_allowed',
    message: `${method} is not a method of ${pathname.slice(0, 120)}: it takes ${methods.join(' or ')}. See the API table of the README for what each does.`,
    allow: allowed.join(', '),
  };
}
