/**
 * `http/get` as the host does it for a run: the URL is the run's to choose (a
 * code step or the model writes it), and the request leaves from the server,
 * not from the sandbox — so it could reach what the sandbox cannot: the app's
 * own API on loopback (which answers loopback without a token when none is
 * set: every skill, run and value in the store), the database's host, a cloud
 * metadata service, the intranet. So every address a request connects to,
 * each redirect's included, is checked at connect time (in the lookup the
 * socket connects with, so a name that resolves to a public address once and
 * to 127.0.0.1 the next time is caught too), and addresses that are not on
 * the public internet are refused unless STAGECRAFT_HTTP_PRIVATE=allow.
 * And the answer is bounded: at most HTTP_GET_MAX_BYTES are read (a server
 * sending without end would otherwise fill the server's memory) within
 * HTTP_GET_TIMEOUT_MS.
 *
 * Owns: the address check, the body cap, the time limit, redirects (at most
 * MAX_REDIRECTS, http and https only). Does not: gate the op (the kernel's
 * permission gate does) or record anything.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';
import { StepFailedError } from '../../kernel/errors';

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

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return family === 4 ? PRIVATE_V4.check(address, 'ipv4') : PRIVATE_V6.check(address, 'ipv6');
}

export type HttpGetOptions = { allowPrivate?: boolean; maxBytes?: number; timeoutMs?: number };

/** The options from the environment: STAGECRAFT_HTTP_PRIVATE=allow lets http/get reach private addresses. */
export function httpGetOptionsFromEnv(env: Record<string, string | undefined>): HttpGetOptions {
  return { allowPrivate: env.STAGECRAFT_HTTP_PRIVATE === 'allow' };
}

/** A `fetch` for the kernel's http/get (a GET of `url`, answered as a Response whose body is already read, within the cap). */
export function hostFetch(opts: HttpGetOptions = {}): typeof fetch {
  return (async (input: string | URL | Request) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
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

function refusedAddress(url: string, host: string, address: string): StepFailedError {
  return new StepFailedError(
    'op_address_refused',
    `http/get ${url}: ${host === address ? host : `${host} (${address})`} is not an address on the public internet; http/get is done by the server, so it may not reach the server itself, its network or a metadata service. Set STAGECRAFT_HTTP_PRIVATE=allow to let runs reach private addresses.`,
    { op: 'http/get', url, address },
  );
}

type Lookup = NonNullable<http.RequestOptions['lookup']>;

/** a lookup that answers only addresses allowed (the socket connects to what it answers: checked at connect time) */
function checkedLookup(url: string, host: string, allowPrivate: boolean): Lookup {
  return ((hostname: string, options: { all?: boolean }, cb: (err: Error | null, address: string | LookupAddress[], family?: number) => void) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return cb(err, '');
      const allowed = allowPrivate ? addresses : addresses.filter((a) => !isPrivateAddress(a.address));
      if (!allowed.length) return cb(refusedAddress(url, host, addresses[0]?.address ?? '(none)'), '');
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
  if (isIP(host) && !opts.allowPrivate && isPrivateAddress(host)) return Promise.reject(refusedAddress(asked, host, host));
  const get = u.protocol === 'https:' ? https.get : http.get;
  return new Promise<Answer>((resolve, reject) => {
    const req = get(u, { signal, lookup: checkedLookup(asked, host, !!opts.allowPrivate), headers: { 'accept-encoding': 'identity' } }, (res) => {
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
