/** The help pages' shared frame: the header nav, the page's HTML, and our own script and styles. */

/** Every page's policy: only this origin's scripts, styles, images (and Swagger UI's inline SVG icons), nothing inline run. */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  // Swagger UI fetches /openapi.json and sends "Try it out" requests to this relay.
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export interface NavLink {
  href: string;
  label: string;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);

export interface PageParts {
  title: string;
  /** The nav entry shown as the current page. */
  current: string | null;
  nav: readonly NavLink[];
  /** Already-safe HTML (rendered by us). */
  body: string;
  /** The tab's icon (browsers ask for /favicon.ico otherwise, which is no page of ours). */
  icon?: string;
  stylesheets?: readonly string[];
  scripts?: readonly string[];
}

export function renderPage(page: PageParts): string {
  const links = page.nav
    .map((link) => `<a href="${escapeHtml(link.href)}"${link.href === page.current ? ' aria-current="page"' : ''}>${escapeHtml(link.label)}</a>`)
    .join('\n      ');
  const stylesheets = ['/docs/assets/docs.css', ...(page.stylesheets ?? [])].map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`);
  if (page.icon) stylesheets.unshift(`<link rel="icon" type="image/png" href="${escapeHtml(page.icon)}">`);
  const scripts = (page.scripts ?? []).map((src) => `<script src="${escapeHtml(src)}"></script>`);
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(page.title)} · chat-relay</title>
  ${stylesheets.join('\n  ')}
</head>
<body>
  <header class="docs-header">
    <a class="docs-brand" href="/docs">chat-relay</a>
    <nav>
      ${links}
    </nav>
  </header>
  <main class="docs-main">
${page.body}
  </main>
  ${scripts.join('\n  ')}
</body>
</html>
`;
}

/** Mounts Swagger UI on the relay's OpenAPI document; a file, since the page's CSP runs no inline script. */
export const SWAGGER_INIT_JS = `'use strict';
window.addEventListener('DOMContentLoaded', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

export const DOCS_CSS = `
:root { color-scheme: light; --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --accent: #0969da; --code: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.6 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #fff; }
.docs-header { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 1.5rem; padding: 0.75rem 1.5rem; border-bottom: 1px solid var(--line); background: #f6f8fa; }
.docs-brand { font-weight: 700; color: var(--ink); text-decoration: none; }
.docs-header nav { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; }
.docs-header nav a { color: var(--muted); text-decoration: none; }
.docs-header nav a:hover, .docs-header nav a[aria-current="page"] { color: var(--accent); }
.docs-main { max-width: 60rem; margin: 0 auto; padding: 1.5rem; }
.docs-main.docs-wide { max-width: none; padding: 0; }
.docs-guide h1, .docs-guide h2, .docs-guide h3 { line-height: 1.25; margin: 1.75rem 0 0.75rem; }
.docs-guide h1 { font-size: 2rem; border-bottom: 1px solid var(--line); padding-bottom: 0.3rem; }
.docs-guide h2 { font-size: 1.5rem; border-bottom: 1px solid var(--line); padding-bottom: 0.3rem; }
.docs-guide a { color: var(--accent); }
.docs-guide code { font: 0.875em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--code); padding: 0.15em 0.35em; border-radius: 4px; }
.docs-guide pre { background: var(--code); padding: 1rem; border-radius: 6px; overflow-x: auto; line-height: 1.45; }
.docs-guide pre code { background: none; padding: 0; }
.docs-guide table { border-collapse: collapse; display: block; overflow-x: auto; }
.docs-guide th, .docs-guide td { border: 1px solid var(--line); padding: 0.4rem 0.75rem; text-align: left; vertical-align: top; }
.docs-guide blockquote { margin: 0; padding: 0 1rem; color: var(--muted); border-left: 0.25rem solid var(--line); }
.docs-guide-list li { margin: 0.4rem 0; }
`;
