import express, { type Request, type Response, type Router } from 'express';
import fs from 'node:fs';
import path from 'node:path';

// The console's own page may only load what the relay serves (no CDN, nothing inline but styles).
const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

const notBuilt = (res: Response) =>
  res
    .status(503)
    .type('text/plain')
    .send('The console is not built here: run `npm run build` (or `npm start`, which builds it) and reload.');

/**
 * `/console`: the single-page app built by `apps/console` (Vite) into `dir`. Hashed assets are
 * cached for a year and a missing one is a plain 404 — never the page, whose HTML would load as
 * a broken script; every other path gets `index.html`, never cached, so after an upgrade the
 * browser asks for the new chunks at once.
 */
export function consoleStatic(dir: string): Router {
  // Strict: `/console` (redirected) and `/console/` (the app) are different paths.
  const router = express.Router({ strict: true });
  const indexFile = path.join(dir, 'index.html');
  const sendIndex = (_req: Request, res: Response) => {
    if (!fs.existsSync(indexFile)) return void notBuilt(res);
    res.set({ 'cache-control': 'no-cache', 'content-security-policy': CONSOLE_CSP, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' });
    res.sendFile(indexFile);
  };
  // A browser opening the relay's address lands in the console.
  router.get('/', (_req, res) => res.redirect(302, '/console/'));
  router.get('/console', (req, res) => res.redirect(301, `/console/${req.url.slice('/console'.length)}`));
  router.use(
    '/console/assets',
    express.static(path.join(dir, 'assets'), { immutable: true, maxAge: '365d', index: false, fallthrough: true }),
    (_req: Request, res: Response) => void res.status(404).type('text/plain').send('No such console asset (an older build?): reload the page.'),
  );
  router.get('/console/*', sendIndex);
  return router;
}
