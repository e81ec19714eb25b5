import { createRequire } from 'node:module';
import path from 'node:path';
import express, { type Response, type Router } from 'express';
import { z } from 'zod';
import { GUIDES, GuideLibrary } from './docs-guides';
import { DOCS_CSP, DOCS_CSS, escapeHtml, renderPage, SWAGGER_INIT_JS, type NavLink, type PageParts } from './docs-layout';

export interface DocsOptions {
  /** The repository's `docs/` folder (guides under `docs/guides`); found from the bundle's place when not given. */
  docsDir?: string;
}

/** Swagger UI's files as its npm package ships them: served from there, never from a CDN. */
function swaggerUiDist(): { dir: string; version: string } {
  const load = createRequire(__filename);
  const manifest = load.resolve('swagger-ui-dist/package.json');
  const { version } = z.object({ version: z.string().regex(/^[\w.-]+$/) }).parse(load(manifest));
  return { dir: path.dirname(manifest), version };
}

/** What the API reference page loads; the version in the path lets browsers keep them for a year. */
const SWAGGER_FILES = new Set(['swagger-ui-bundle.js', 'swagger-ui.css', 'swagger-ui-bundle.js.map', 'swagger-ui.css.map', 'favicon-32x32.png']);
const OWN_ASSET_CACHE = 'public, max-age=3600';

const NAV: readonly NavLink[] = [
  { href: '/docs', label: 'API reference' },
  ...GUIDES.map((guide) => ({ href: `/docs/guides/${guide.name}`, label: guide.label })),
  { href: '/console', label: 'Console' },
];

/**
 * Public help pages (no key: nothing here is secret): `/docs` is the API reference — Swagger UI
 * on `/openapi.json` — and `/docs/guides/<name>` the guides rendered from the repository's
 * Markdown. Every answer carries a strict Content-Security-Policy: same-origin files only.
 */
export function docsRouter(options: DocsOptions = {}): Router {
  const router = express.Router({ strict: false, caseSensitive: true });
  const swagger = swaggerUiDist();
  const swaggerBase = `/docs/assets/swagger/${swagger.version}`;
  let guides: GuideLibrary | undefined;
  const library = () => (guides ??= new GuideLibrary(options.docsDir));

  router.use((_req, res, next) => {
    res.setHeader('Content-Security-Policy', DOCS_CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    next();
  });

  const sendPage = (res: Response, status: number, parts: Omit<PageParts, 'nav' | 'icon'>) => {
    res.status(status).type('html').setHeader('Cache-Control', 'no-cache');
    res.send(renderPage({ ...parts, nav: NAV, icon: `${swaggerBase}/favicon-32x32.png` }));
  };
  // The address asked for is not echoed: a crafted link must not put words on our page.
  const notFoundPage = (res: Response) =>
    sendPage(res, 404, {
      title: 'Not found',
      current: null,
      body: '<div class="docs-guide"><h1>Not found</h1><p>There is no help page here. See the <a href="/docs/guides">guides</a> or the <a href="/docs">API reference</a>.</p></div>',
    });

  router.get('/', (_req, res) =>
    sendPage(res, 200, {
      title: 'API reference',
      current: '/docs',
      body: '<div id="swagger-ui"></div>',
      stylesheets: [`${swaggerBase}/swagger-ui.css`],
      scripts: [`${swaggerBase}/swagger-ui-bundle.js`, '/docs/assets/docs.js'],
    }),
  );

  router.get('/guides', (_req, res) => {
    const items = GUIDES.map((guide) => `<li><a href="/docs/guides/${guide.name}">${escapeHtml(guide.label)}</a></li>`).join('\n');
    sendPage(res, 200, { title: 'Guides', current: null, body: `<div class="docs-guide"><h1>Guides</h1><ul class="docs-guide-list">\n${items}\n</ul></div>` });
  });

  router.get('/guides/:name', (req, res) => {
    const name = req.params['name'] ?? '';
    const guide = library().render(name);
    if (!guide) return notFoundPage(res);
    sendPage(res, 200, { title: guide.title, current: `/docs/guides/${name}`, body: `<article class="docs-guide">\n${guide.html}</article>` });
  });

  router.get('/assets/docs.js', (_req, res) => {
    res.type('js').setHeader('Cache-Control', OWN_ASSET_CACHE);
    res.send(SWAGGER_INIT_JS);
  });
  router.get('/assets/docs.css', (_req, res) => {
    res.type('css').setHeader('Cache-Control', OWN_ASSET_CACHE);
    res.send(DOCS_CSS);
  });
  router.get('/assets/swagger/:version/:file', (req, res, next) => {
    const file = req.params['file'] ?? '';
    if (req.params['version'] !== swagger.version || !SWAGGER_FILES.has(file)) return next();
    res.sendFile(file, { root: swagger.dir, maxAge: '365d', immutable: true, dotfiles: 'deny' }, (error) => {
      if (error && !res.headersSent) next(error);
    });
  });

  router.use((_req, res) => notFoundPage(res));
  return router;
}
