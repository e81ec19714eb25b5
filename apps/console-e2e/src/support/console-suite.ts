import { startUpstreamSim, type UpstreamSim } from '@chat-relay/upstream-sim';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, type BrowserSession } from './browser';
import { PageWatch } from './page-watch';
import { RelayApi } from './relay-api';
import { startRelayProcess, WORKSPACE_ROOT, type RelayProcess } from '@chat-relay/e2e-support';

/** The only key the simulator accepts: a channel with another key fails its test. */
export const SIM_KEY = 'sk-sim-console-e2e';
export const SCREENSHOT_DIR = path.join(WORKSPACE_ROOT, 'tmp/console-e2e-screenshots');

export interface ConsoleSuite {
  sim: UpstreamSim;
  relay: RelayProcess;
  api: RelayApi;
  page: Page;
  watch: PageWatch;
  /** A full-page screenshot into tmp/console-e2e-screenshots/<name>.png; returns its path. */
  screenshot(name: string): Promise<string>;
}

/**
 * Registers the hooks of one spec file: the simulator (in this process), the production relay
 * (its own process) and Chromium on one page, started before the first test and stopped after
 * the last; after every test, nothing may have gone wrong on the page.
 */
export function useConsoleSuite(): ConsoleSuite {
  let started: Omit<ConsoleSuite, 'screenshot'> | undefined;
  let browser: BrowserSession | undefined;
  const shots: string[] = [];
  const get = (): Omit<ConsoleSuite, 'screenshot'> => {
    if (!started) throw new Error('the console suite did not start (see the beforeAll error)');
    return started;
  };

  beforeAll(async () => {
    const sim = await startUpstreamSim({ acceptedKeys: [SIM_KEY] });
    let relay: RelayProcess | undefined;
    try {
      relay = await startRelayProcess();
      browser = await launchBrowser(relay.url);
      const page = browser.context.pages()[0] ?? (await browser.context.newPage());
      started = { sim, relay, api: new RelayApi(relay.url), page, watch: new PageWatch(page, relay.url) };
    } catch (error) {
      await relay?.close();
      await sim.close();
      throw error;
    }
  }, 120_000);

  afterEach(() => {
    // A test that failed before its end may leave expected failures behind; they are forgotten here.
    if (started) expect(started.watch.takeProblems()).toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    await started?.relay.close();
    await started?.sim.close();
    if (shots.length > 0) console.log(`console-e2e screenshots:\n${shots.map((shot) => `  ${shot}`).join('\n')}`);
  }, 60_000);

  return {
    get sim() {
      return get().sim;
    },
    get relay() {
      return get().relay;
    },
    get api() {
      return get().api;
    },
    get page() {
      return get().page;
    },
    get watch() {
      return get().watch;
    },
    async screenshot(name: string) {
      fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
      const file = path.join(SCREENSHOT_DIR, `${name}.png`);
      await get().page.screenshot({ path: file, fullPage: true });
      shots.push(path.relative(WORKSPACE_ROOT, file));
      return file;
    },
  };
}
