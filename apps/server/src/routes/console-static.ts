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

const ASSET_TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml' };

/**
 * The build's `<asset>.gz` (written by tools/scripts/gzip-assets.mjs) to a browser that takes
 * gzip: the console's script is ~1 MB and ~300 kB compressed, compressed once at build time.
 */
function sendPrecompressed(assetsDir: string) {
  return (req: Request, res: Response, next: () => void) => {
    const type = ASSET_TYPES[path.extname(req.path)];
    const name = path.basename(req.path);
    // Only plain hashed file names: never a path that could leave the folder.
    if (!type || name !== req.path.slice(1) || !/\bgzip\b/.test(req.get('accept-encoding') ?? '')) return next();
    const compressed = path.join(assetsDir, `${name}.gz`);
    if (!fs.existsSync(compressed)) return next();
    res.set({ 'content-type': type, 'content-encoding': 'gzip', vary: 'Accept-Encoding', 'cache-control': 'public, max-age=31536000, immutable' });
    res.sendFile(compressed);
  };
}

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
    sendPrecompressed(path.join(dir, 'assets')),
    express.static(path.join(dir, 'assets'), { immutable: true, maxAge: '365d', index: false, fallthrough: true }),
    (_req: Request, res: Response) => void res.status(404).type('text/plain').send('No such console asset (an older build?): reload the page.'),
  );
  router.get('/console/*', sendIndex);
  return router;
}
