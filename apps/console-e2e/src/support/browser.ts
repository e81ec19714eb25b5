import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`); playwright-core brings no browser of its own. */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

// The machine has no outside network: every background connection Chromium would open is turned off.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

export interface BrowserSession {
  context: BrowserContext;
  /** Closes the browser and removes its profile directory. */
  close(): Promise<void>;
}

/**
 * Chromium with a fresh profile in a temporary directory (Playwright takes the profile as the
 * persistent context's directory, not as a `--user-data-dir` argument), on the relay's origin:
 * clipboard permissions granted there, downloads kept for the test to read.
 */
export async function launchBrowser(origin: string): Promise<BrowserSession> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`${CHROMIUM_PATH} is missing: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH.`);
  }
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-e2e-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      acceptDownloads: true,
      baseURL: origin,
      viewport: { width: 1280, height: 800 },
      colorScheme: 'light',
      timeout: 30_000,
    });
    context.setDefaultTimeout(15_000);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    return {
      context,
      close: async () => {
        await context.close().catch(() => undefined);
        fs.rmSync(userDataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    fs.rmSync(userDataDir, { recursive: true, force: true });
    throw error;
  }
}
