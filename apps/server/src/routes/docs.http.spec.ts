import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';
import { GUIDES } from './docs-guides';
import { docsRouter } from './docs.route';

/** Every `src` and `href` of the page's script and link elements. */
const assetUrls = (html: string): string[] =>
  [...html.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]+)"/g)].map((match) => match[1] ?? '');
const titleOf = (html: string): string => /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';

describe('issue 16: help pages at /docs', () => {
  let relay: TestRelay;

  beforeAll(async () => {
    relay = await createTestRelay();
  });
  afterAll(() => relay.close());

  it('/docs mounts Swagger UI on /openapi.json from same-origin files, under a strict CSP, with the nav', async () => {
    const page = await request(relay.app).get('/docs').expect(200);

    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.text).toContain('<div id="swagger-ui"></div>');
    for (const guide of GUIDES) expect(page.text).toContain(`href="/docs/guides/${guide.name}"`);
    expect(page.text).toContain('href="/console"');

    const assets = assetUrls(page.text);
    expect(assets.some((url) => /swagger-ui-bundle\.js$/.test(url))).toBe(true);
    expect(assets.some((url) => /swagger-ui\.css$/.test(url))).toBe(true);
    expect(assets.filter((url) => !url.startsWith('/docs/assets/'))).toEqual([]);
    expect(page.text).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    // No inline script: every script element loads a file.
    expect(page.text.match(/<script(?![^>]*\bsrc=)[^>]*>/g)).toBeNull();

    const init = await request(relay.app).get('/docs/assets/docs.js').expect(200);
    expect(init.text).toContain("url: '/openapi.json'");
    const document = await request(relay.app).get('/openapi.json').expect(200);
    expect(document.body.paths['/api/channels/{id}/test']).toBeDefined();
  });

  it('serves every asset the page names: JavaScript and CSS content types, Swagger UI cached for a year', async () => {
    const page = await request(relay.app).get('/docs').expect(200);
    for (const url of assetUrls(page.text)) {
      const asset = await request(relay.app).get(url).expect(200);
      const type = url.endsWith('.js') ? /^application\/javascript/ : url.endsWith('.css') ? /^text\/css/ : /^image\/png$/;
      expect(asset.headers['content-type']).toMatch(type);
      expect(Number(asset.headers['content-length'])).toBeGreaterThan(100);
      if (url.includes('/swagger/')) expect(asset.headers['cache-control']).toMatch(/max-age=31536000.*immutable/);
    }
    const bundle = assetUrls(page.text).find((url) => url.endsWith('swagger-ui-bundle.js')) ?? '';
    // The versioned path names one release: another version, or a file outside the list, is not served.
    await request(relay.app).get(bundle.replace(/\/swagger\/[^/]+\//, '/swagger/0.0.1/')).expect(404);
    await request(relay.app).get(bundle.replace('swagger-ui-bundle.js', 'package.json')).expect(404);
  });

  it.each(GUIDES.map((guide) => guide.name))('renders the %s guide with its title, the nav and the CSP', async (name) => {
    const page = await request(relay.app).get(`/docs/guides/${name}`).expect(200);
    const h1 = /<h1[^>]*>(.*?)<\/h1>/.exec(page.text)?.[1] ?? '';
    expect(h1.length).toBeGreaterThan(0);
    expect(titleOf(page.text)).toBe(`${h1.replace(/<[^>]+>/g, '')} · chat-relay`);
    expect(page.text).toContain(`<a href="/docs/guides/${name}" aria-current="page">`);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.text).not.toMatch(/<script/);
  });

  it("turns a guide's links to other guides' files into their pages, and gives headings GitHub's anchors", async () => {
    const page = await request(relay.app).get('/docs/guides/quick-start').expect(200);
    expect(page.text).toContain('<a href="/docs/guides/channels">Channels</a>');
    expect(page.text).toContain('<a href="/docs/guides/scaling">Several instances</a>');
    expect(page.text).toContain('<h2 id="add-a-channel">Add a channel</h2>');
  });

  it('answers an unknown guide or page with a 404 page, and refuses paths out of the guides', async () => {
    for (const url of ['/docs/guides/nope', '/docs/nope', '/docs/guides/..%2f..%2fpackage.json', '/docs/guides/..%2fSCALING.md', '/docs/assets/..%2f..%2fpackage.json']) {
      const missing = await request(relay.app).get(url).expect(404);
      expect(missing.headers['content-type']).toMatch(/^text\/html/);
      expect(missing.text).toContain('<h1>Not found</h1>');
      expect(missing.text).not.toContain('"name": "chat-relay"');
    }
  });

  it('needs no key, and leaves the keyless 401 of unknown /v1 and /api paths as it was', async () => {
    await request(relay.app).get('/docs/guides').expect(200);
    await request(relay.app).get('/v1/docs').expect(401);
    await request(relay.app).get('/api/docs').expect(401);
  });
});

describe('guides from another folder (docsDir)', () => {
  let dir: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chat-relay-docs-'));
    fs.mkdirSync(path.join(dir, 'guides'));
    const hostile = [
      '# Hostile <em>title</em>',
      '<script>alert(1)</script>',
      '[run](javascript:alert(1)) [away](//evil.example/x) [other](data:text/html,x) [web](https://example.com/a) [console](/console)',
      '![pixel](https://tracker.example/p.png)',
      '[missing](nowhere.md) [channels](channels.md#keys)',
    ].join('\n\n');
    fs.writeFileSync(path.join(dir, 'guides', 'quick-start.md'), hostile);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('shows raw HTML as text, keeps only safe links, loads no image, and 404s a guide whose file is missing', async () => {
    const app = express().use('/docs', docsRouter({ docsDir: dir }));
    const page = await request(app).get('/docs/guides/quick-start').expect(200);

    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.text).not.toContain('<script>alert');
    expect(page.text).not.toMatch(/href="(?:javascript:|data:|\/\/evil)/);
    expect(page.text).toContain('<a href="https://example.com/a">web</a>');
    expect(page.text).toContain('<a href="/console">console</a>');
    expect(page.text).not.toContain('<img');
    expect(page.text).toContain('<a href="/docs/guides/channels#keys">channels</a>');
    expect(page.text).not.toContain('href="nowhere.md"');
    expect(titleOf(page.text)).toBe('Hostile &lt;em&gt;title&lt;/em&gt; · chat-relay');

    await request(app).get('/docs/guides/channels').expect(404);
  });
});
