/**
 * The source of a stand-in sandbox worker for the protocol tests: it says ready on the reply channel
 * (fd 4), writes whole buffers there (`write`, retrying EAGAIN), and hands each request line read
 * from fd 3 to `body`, which sees `id` and `input` (and `write`).
 */
export const FAKE_WORKER_PRELUDE = `const fs = require('fs');
fs.writeSync(4, '{"type":"ready"}\\n');
const write = (b) => { let off = 0; while (off < b.length) { try { off += fs.writeSync(4, b, off, b.length - off); } catch (e) { if (e.code !== 'EAGAIN') throw e; } } };
`;

/** `body` run for each request line, with `id` and `input` parsed from it */
export const onEachRequest = (body: string): string => `let buf = '';
fs.createReadStream(null, { fd: 3, encoding: 'utf8' }).on('data', (d) => {
  buf += d;
  const nl = buf.indexOf('\\n');
  if (nl < 0) return;
  const { id, input } = JSON.parse(buf.slice(0, nl));
  buf = buf.slice(nl + 1);
${body}
});
`;
