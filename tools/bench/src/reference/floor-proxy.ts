// The floor for Node: plain node:http in front, undici behind, bytes forwarded as they come.
// No parsing, no framework. Whatever a real proxy does costs at least this much.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import { Agent, request } from 'undici';
import { endToEndHeaders, proxySettings } from './hop-by-hop';

const { upstream, port } = proxySettings('floor-proxy');
const dispatcher = new Agent({ keepAliveTimeout: 30_000 });

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readBody(req);
  const upstreamResponse = await request(`${upstream}${req.url ?? '/'}`, {
    method: req.method === 'POST' ? 'POST' : 'GET',
    headers: endToEndHeaders(req.headers),
    body: body.length > 0 ? body : undefined,
    dispatcher,
  });
  res.writeHead(upstreamResponse.statusCode, endToEndHeaders(upstreamResponse.headers));
  for await (const chunk of upstreamResponse.body) {
    if (!res.write(chunk)) await once(res, 'drain');
  }
  res.end();
}

createServer((req, res) => {
  forward(req, res).catch((error: unknown) => {
    if (res.headersSent) res.destroy();
    else res.writeHead(502, { 'content-type': 'text/plain' }).end(String(error));
  });
}).listen(port, '127.0.0.1', 4096, () => console.log(`floor-proxy on ${port} → ${upstream}`));

process.once('SIGTERM', () => process.exit(0));
