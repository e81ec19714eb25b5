import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import request from 'supertest';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';

/** A stand-in for `dist/apps/console`: what Vite writes (an index and hashed assets). */
function builtConsole(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-build-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><script type="module" src="/console/assets/index-abc123.js"></script>');
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log("console")');
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js.gz'), zlib.gzipSync('console.log("console")'));
  return dir;
}

describe('/console: the built single-page app', () => {
  let relay: TestRelay;
  let dir: string;
  beforeAll(async () => {
    dir = builtConsole();
    relay = await createTestRelay({ consoleDir: dir });
  });
  afterAll(async () => {
    await relay.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves index.html for the app and every client-side route, never cached, with a same-origin CSP', async () => {
    for (const url of ['/console/', '/console/tokens', '/console/logs?status=500']) {
      const response = await request(relay.app).get(url).expect(200);
      expect(response.text).toContain('/console/assets/index-abc123.js');
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['content-security-policy']).toContain("script-src 'self'");
      expect(response.headers['content-security-policy']).toContain("connect-src 'self'");
    }
  });

  it('sends / and /console to /console/', async () => {
    expect((await request(relay.app).get('/').expect(302)).headers['location']).toBe('/console/');
    expect((await request(relay.app).get('/console').expect(301)).headers['location']).toBe('/console/');
  });

  it('keeps HEAD / answering 200 for Claude Code', async () => {
    await request(relay.app).head('/').expect(200);
  });

  it('serves hashed assets as immutable for a year', async () => {
    const response = await request(relay.app).get('/console/assets/index-abc123.js').expect(200);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toContain('immutable');
    expect(response.headers['cache-control']).toContain('max-age=31536000');
  });

  it('sends the build-time gzip of an asset to a browser that takes gzip, the plain file otherwise', async () => {
    const zipped = await request(relay.app).get('/console/assets/index-abc123.js').set('accept-encoding', 'gzip, deflate, br').expect(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['content-type']).toMatch(/^text\/javascript/);
    expect(zipped.headers['vary']).toBe('Accept-Encoding');
    expect(zipped.headers['cache-control']).toContain('immutable');
    expect(zipped.text).toBe('console.log("console")');

    const plain = await request(relay.app).get('/console/assets/index-abc123.js').set('accept-encoding', 'identity').expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text).toBe('console.log("console")');
  });

  // LiteLLM: after an upgrade the UI asked for old chunks and got the HTML page back (blank /ui).
  it('answers a missing asset (an older build) with a 404, never with the HTML page', async () => {
    const response = await request(relay.app).get('/console/assets/index-old999.js').expect(404);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.text).not.toContain('<script');
  });

  it('does not serve files outside the build', async () => {
    const response = await request(relay.app).get('/console/assets/..%2f..%2fpackage.json');
    expect(response.status).toBe(404);
  });
});

describe('/console before the console is built', () => {
  it('answers 503 saying how to build it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-empty-'));
    const relay = await createTestRelay({ consoleDir: dir });
    try {
      const response = await request(relay.app).get('/console/').expect(503);
      expect(response.text).toContain('npm run build');
    } finally {
      await relay.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
