// Bare Express 4 as a proxy does nothing else: express.json() parses, undici forwards,
// res.json() answers (with Express's defaults, ETag included); streams are piped through.
import express from 'express';
import { Agent, request } from 'undici';
import { proxySettings } from './hop-by-hop';

const { upstream, port } = proxySettings('express-proxy');
const dispatcher = new Agent({ keepAliveTimeout: 30_000 });
const app = express();

app.post('/v1/chat/completions', express.json(), async (req, res, next) => {
  try {
    const upstreamResponse = await request(`${upstream}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: req.get('authorization') ?? '' },
      body: JSON.stringify(req.body),
      dispatcher,
    });
    res.status(upstreamResponse.statusCode);
    if ((req.body as { stream?: unknown }).stream === true) {
      res.set({ 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      upstreamResponse.body.pipe(res);
    } else {
      res.json(await upstreamResponse.body.json());
    }
  } catch (error) {
    next(error);
  }
});

app.listen(port, '127.0.0.1', 4096, () => console.log(`express-proxy on ${port} → ${upstream}`));

process.once('SIGTERM', () => process.exit(0));
