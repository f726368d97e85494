/**
 * `http/get` as the host does it for a run: the URL is the run's to choose (a
 * code step or the model writes it), and the request leaves from the server,
 * not from the sandbox — so it could reach what the sandbox cannot. Three
 * walls, each checked for every hop (at most MAX_REDIRECTS):
 * - Stagecraft's own API, at any address: every request carries
 *   RUN_FETCH_HEADER, and a Stagecraft server refuses any request that does
 *   (lib/server/http/security.ts judgeRequest). The app answers loopback
 *   without a token when none is set: without this wall a run could read
 *   every skill, run and value in the store (or change them).
 * - Addresses, checked at connect time (in the lookup the socket connects
 *   with, so a name that resolves to a public address once and to a refused
 *   one the next is caught too), by STAGECRAFT_HTTP_PRIVATE:
 *   unset — link-local addresses (169.254/16, fe80::/10: cloud metadata
 *   services, which hand out the machine's credentials) are refused; this
 *   host and private networks are reached, as a skill granted `net` on a
 *   developer's machine expects (a local model server, a mock, the intranet);
 *   `deny` — only the public internet (a shared server should say so);
 *   `allow` — link-local too.
 * - The answer is bounded: at most HTTP_GET_MAX_BYTES are read (a server
 *   sending without end would otherwise fill the server's memory) within
 *   HTTP_GET_TIMEOUT_MS. A `data:` URL is read without any network.
 *
 * Owns: those walls and redirects (http and https only). Does not: gate the
 * op (the kernel's permission gate does) or record anything.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';
import { SettingsError, StepFailedError } from '../../kernel/errors';
import { RUN_FETCH_HEADER } from '../http/security';

export { RUN_FETCH_HEADER };

/** the most an http/get reads of an answer */
export const HTTP_GET_MAX_BYTES = 8 * 1024 * 1024;
/** how long an http/get may take, redirects included */
export const HTTP_GET_TIMEOUT_MS = 30_000;
export const MAX_REDIRECTS = 5;

/** addresses not on the public internet: this host, private networks, link-local (cloud metadata), and the like */
const PRIVATE_V4 = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE_V4.addSubnet(net, bits, 'ipv4');
// v4-mapped and NAT64 addresses hide a v4 one: refused whole (a list of its own: a BlockList checks
// a v4 address against v6 rules as v4-mapped, so ::ffff:0:0/96 would match every v4 address)
const PRIVATE_V6 = new BlockList();
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE_V6.addSubnet(net, bits, 'ipv6');

/** link-local: where cloud metadata services answer (refused unless STAGECRAFT_HTTP_PRIVATE=allow) */
const LINK_LOCAL = new BlockList();
LINK_LOCAL.addSubnet('169.254.0.0', 16, 'ipv4');
LINK_LOCAL.addSubnet('fe80::', 10, 'ipv6');

export function isLinkLocalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 4) return LINK_LOCAL.check(address, 'ipv4');
  const v4 = mappedV4(address);
  return v4 ? LINK_LOCAL.check(v4, 'ipv4') : LINK_LOCAL.check(address, 'ipv6');
}

/** the v4 address a v4-mapped v6 one hides (::ffff:169.254.169.254, ::ffff:a9fe:a9fe), else null */
function mappedV4(address: string): string | null {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted) return dotted[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return null;
  const [hi, lo] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return family === 4 ? PRIVATE_V4.check(address, 'ipv4') : PRIVATE_V6.check(address, 'ipv6');
}

/** which addresses a run may reach: `local` (the default: all but link-local), `public` (the public internet only), `all` */
export type HttpReach = 'local' | 'public' | 'all';
export type HttpGetOptions = { reach?: HttpReach; maxBytes?: number; timeoutMs?: number };

/**
 * The options from the environment: STAGECRAFT_HTTP_PRIVATE=deny keeps http/get on the public internet, =allow lets it
 * reach link-local addresses too. Any other value is refused: read as unset it would let runs reach this host and the
 * private networks on a server whose operator meant `deny` (`DENY`, `true`, `no`).
 */
export function httpGetOptionsFromEnv(env: Record<string, string | undefined>): HttpGetOptions {
  const v = env.STAGECRAFT_HTTP_PRIVATE?.trim();
  if (v === undefined || v === '') return { reach: 'local' };
  if (v === 'deny') return { reach: 'public' };
  if (v === 'allow') return { reach: 'all' };
  throw new SettingsError(
    `STAGECRAFT_HTTP_PRIVATE=${JSON.stringify(env.STAGECRAFT_HTTP_PRIVATE)}: it is deny (http/get reaches the public internet only) or allow (link-local addresses too); unset, runs reach anything but link-local addresses.`,
  );
}

/** whether a run may connect to `address` */
function isReachable(address: string, reach: HttpReach): boolean {
  if (reach === 'all') return isIP(address) !== 0;
  return reach === 'public' ? !isPrivateAddress(address) : !isLinkLocalAddress(address);
}

/** A `fetch` for the kernel's http/get (a GET of `url`, answered as a Response whose body is already read, within the cap). */
export function hostFetch(opts: HttpGetOptions = {}): typeof fetch {
  return (async (input: string | URL | Request) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    // a data: URL holds its answer (no network): read as fetch reads it; a redirect never leads to one
    if (/^data:/i.test(url)) return fetch(url);
    const { status, body } = await getWithin(url, opts);
    return new Response(body.toString('utf8'), { status });
  }) as typeof fetch;
}

async function getWithin(url: string, opts: HttpGetOptions): Promise<{ status: number; body: Buffer }> {
  const timeoutMs = opts.timeoutMs ?? HTTP_GET_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    let at = parseUrl(url);
    for (let hops = 0; ; hops++) {
      const res = await getOnce(at, opts, controller.signal, url, timeoutMs);
      if (res.location === null) return res;
      if (hops >= MAX_REDIRECTS) throw failed(url, `more than ${MAX_REDIRECTS} redirects`);
      at = parseUrl(new URL(res.location, at).href, url);
    }
  } finally {
    clearTimeout(timer);
  }
}

function parseUrl(href: string, asked = href): URL {
  let u: URL;
  try {
    u = new URL(href);
  } catch {
    throw new StepFailedError('op_bad_args', `http/get: "${href}" is not a URL`, { op: 'http/get', url: asked });
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new StepFailedError('op_bad_args', `http/get: ${href}: only http and https URLs are fetched`, { op: 'http/get', url: asked });
  return u;
}

function failed(url: string, why: string): StepFailedError {
  return new StepFailedError('op_failed', `http/get ${url}: ${why}`, { op: 'http/get', url });
}

function refusedAddress(url: string, host: string, address: string, reach: HttpReach): StepFailedError {
  const where = host === address ? host : `${host} (${address})`;
  const why =
    reach === 'public'
      ? `is not an address on the public internet, and this server lets runs reach no other (STAGECRAFT_HTTP_PRIVATE=deny)`
      : `is link-local, where cloud metadata services hand out the machine's credentials; http/get is done by the server, so runs may not reach it unless STAGECRAFT_HTTP_PRIVATE=allow`;
  return new StepFailedError('op_address_refused', `http/get ${url}: ${where} ${why}`, { op: 'http/get', url, address });
}

type Lookup = NonNullable<http.RequestOptions['lookup']>;

/** a lookup that answers only addresses allowed (the socket connects to what it answers: checked at connect time) */
function checkedLookup(url: string, host: string, reach: HttpReach): Lookup {
  return ((hostname: string, options: { all?: boolean }, cb: (err: Error | null, address: string | LookupAddress[], family?: number) => void) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return cb(err, '');
      const allowed = addresses.filter((a) => isReachable(a.address, reach));
      if (!allowed.length) return cb(refusedAddress(url, host, addresses[0]?.address ?? '(none)', reach), '');
      if (options.all) cb(null, allowed);
      else cb(null, allowed[0].address, allowed[0].family);
    });
  }) as Lookup;
}

type Answer = { status: number; body: Buffer; location: string | null };

function getOnce(u: URL, opts: HttpGetOptions, signal: AbortSignal, asked: string, timeoutMs: number): Promise<Answer> {
  const maxBytes = opts.maxBytes ?? HTTP_GET_MAX_BYTES;
  const host = u.hostname.replace(/^\[|\]$/g, '');
  // an address in the URL is connected to without a lookup: checked here
  const reach = opts.reach ?? 'local';
  if (isIP(host) && !isReachable(host, reach)) return Promise.reject(refusedAddress(asked, host, host, reach));
  const get = u.protocol === 'https:' ? https.get : http.get;
  return new Promise<Answer>((resolve, reject) => {
    const req = get(u, { signal, lookup: checkedLookup(asked, host, reach), headers: { 'accept-encoding': 'identity', [RUN_FETCH_HEADER]: '1' } }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        return resolve({ status, body: Buffer.alloc(0), location: res.headers.location });
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          req.destroy();
          return reject(new StepFailedError('op_too_large', `http/get ${asked}: the answer is over ${maxBytes} bytes; nothing more was read`, { op: 'http/get', url: asked, maxBytes }));
        }
        chunks.push(chunk);
      });
      res.on('end', () => resolve({ status, body: Buffer.concat(chunks), location: null }));
      res.on('error', (e) => reject(failed(asked, e.message)));
    });
    req.on('error', (e) => {
      if (e instanceof StepFailedError) return reject(e);
      if (signal.aborted) return reject(new StepFailedError('op_timeout', `http/get ${asked}: no whole answer within ${timeoutMs} ms`, { op: 'http/get', url: asked, timeoutMs }));
      reject(failed(asked, e.message));
    });
  });
}
