import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import type * as MarkedModule from 'marked';
import type { Tokens } from 'marked';
import { escapeHtml } from './docs-layout';

/** A guide: its URL name, title in the nav, and its Markdown file under the repository's `docs/`. */
export interface GuideEntry {
  name: string;
  label: string;
  file: string;
}

export const GUIDES: readonly GuideEntry[] = [
  { name: 'quick-start', label: 'Quick start', file: 'guides/quick-start.md' },
  { name: 'channels', label: 'Channels', file: 'guides/channels.md' },
  { name: 'assistants', label: 'Assistants', file: 'guides/assistants.md' },
  { name: 'clients', label: 'Clients', file: 'guides/clients.md' },
  { name: 'webhooks', label: 'Alerts and webhooks', file: 'guides/webhooks.md' },
  { name: 'scaling', label: 'Scaling', file: 'SCALING.md' },
  { name: 'performance', label: 'Performance', file: 'PERFORMANCE.md' },
];

export interface RenderedGuide {
  title: string;
  html: string;
}

/**
 * The repository's `docs/` folder, found from this file's place: `npm start` runs the bundle
 * (dist/apps/server/main.js) from the clone, whose docs/ is three folders up — and the specs run
 * the source (apps/server/src/routes), four up. The guides are not copied into dist.
 */
export function defaultDocsDir(from: string = __dirname): string {
  let dir = from;
  for (let depth = 0; depth < 6; depth += 1) {
    const candidate = path.join(dir, 'docs');
    if (fs.existsSync(path.join(candidate, 'guides'))) return candidate;
    dir = path.dirname(dir);
  }
  return path.resolve(from, '../../../docs');
}

/**
 * marked ships as an ES module ("type": "module"), which jest cannot `require` and older Node 20s
 * neither; its UMD build, next to it in the package, is run here as the CommonJS it is written as.
 */
function loadMarked(): typeof MarkedModule {
  const file = path.join(path.dirname(require.resolve('marked/package.json')), 'lib', 'marked.umd.js');
  const module: { exports: unknown } = { exports: {} };
  vm.compileFunction(fs.readFileSync(file, 'utf8'), ['exports', 'module'], { filename: file })(module.exports, module);
  return module.exports as typeof MarkedModule;
}

/** GitHub's heading anchors (lower case, punctuation dropped, spaces → `-`), so `#section` links work here too. */
const slug = (text: string): string =>
  text
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/&[a-z0-9#]+;/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');

const SAFE_SCHEME = /^(https?:|mailto:)/i;

/**
 * Renders the guides from Markdown, each once (then kept). Raw HTML in the Markdown is shown as
 * text, never passed through; links keep only http(s), mailto and in-page targets, and a relative
 * link to another guide's file (`channels.md`, `../SCALING.md`) becomes its page here — so the
 * same files read right on GitHub and at /docs/guides.
 */
export class GuideLibrary {
  private readonly rendered = new Map<string, RenderedGuide>();
  private readonly marked: typeof MarkedModule;

  constructor(private readonly docsDir: string = defaultDocsDir()) {
    this.marked = loadMarked();
  }

  entry(name: string): GuideEntry | undefined {
    return GUIDES.find((guide) => guide.name === name);
  }

  /** The guide's page, or undefined for a name that is not a guide (or whose file is missing). */
  render(name: string): RenderedGuide | undefined {
    const cached = this.rendered.get(name);
    if (cached) return cached;
    const entry = this.entry(name);
    if (!entry) return undefined;
    let source: string;
    try {
      source = fs.readFileSync(path.join(this.docsDir, entry.file), 'utf8');
    } catch {
      return undefined;
    }
    const guide = this.renderMarkdown(entry, source);
    this.rendered.set(name, guide);
    return guide;
  }

  private renderMarkdown(entry: GuideEntry, source: string): RenderedGuide {
    const marked = new this.marked.Marked({ gfm: true });
    const linkTarget = (href: string) => this.linkTarget(entry, href);
    marked.use({
      renderer: {
        html: ({ text }: Tokens.HTML | Tokens.Tag) => escapeHtml(text),
        heading(token: Tokens.Heading) {
          const inner = this.parser.parseInline(token.tokens);
          return `<h${token.depth} id="${escapeHtml(slug(inner))}">${inner}</h${token.depth}>\n`;
        },
        link(token: Tokens.Link) {
          const inner = this.parser.parseInline(token.tokens);
          const href = linkTarget(token.href);
          if (href === undefined) return inner;
          const title = token.title ? ` title="${escapeHtml(token.title)}"` : '';
          return `<a href="${escapeHtml(href)}"${title}>${inner}</a>`;
        },
        // Images are not fetched from anywhere: their alt text stands in.
        image: ({ text }: Tokens.Image) => escapeHtml(text),
      },
    });
    const html = marked.parse(source, { async: false });
    const heading = marked.lexer(source).find((token): token is Tokens.Heading => token.type === 'heading' && token.depth === 1);
    const title = heading ? heading.text.replace(/[`*_]/g, '') : entry.label;
    return { title, html };
  }

  /** Where a link may go from this guide, or undefined to show its text alone. */
  private linkTarget(entry: GuideEntry, href: string): string | undefined {
    if (href.startsWith('#') || SAFE_SCHEME.test(href)) return href;
    // This relay's own pages (`/docs`, `/console`); not `//host/…` (nor `/\host`), which leave the origin.
    if (href.startsWith('/')) return /^\/[/\\]/.test(href) ? undefined : href;
    if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return undefined;
    const [file = '', anchor] = href.split('#', 2);
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(entry.file), file));
    const guide = GUIDES.find((candidate) => candidate.file === target);
    if (!guide) return undefined;
    return `/docs/guides/${guide.name}${anchor ? `#${anchor}` : ''}`;
  }
}
