import type { Page } from 'playwright-core';
import { ADMIN_SECTIONS, signIn } from './support/console-pages';
import { useConsoleSuite } from './support/console-suite';

/** The chat completions operation as the contract describes it (libs/contract chat.contract.ts). */
const CHAT_PATH = '/v1/chat/completions';
const CHAT_SUMMARY = 'Create a chat completion';

interface FocusedElement {
  text: string;
  outlineWidth: number;
  outlineStyle: string;
}

const focused = (page: Page): Promise<FocusedElement> =>
  page.evaluate(() => {
    const element = document.activeElement ?? document.body;
    const style = getComputedStyle(element);
    return { text: (element.textContent ?? '').trim(), outlineWidth: parseFloat(style.outlineWidth) || 0, outlineStyle: style.outlineStyle };
  });

/** What the reader sees behind the page: the body's colour, or the root's when the body is transparent. */
const pageBackground = (page: Page): Promise<string> =>
  page.evaluate(() => {
    const transparent = (colour: string) => colour === 'transparent' || colour === 'rgba(0, 0, 0, 0)';
    const body = getComputedStyle(document.body).backgroundColor;
    return transparent(body) ? getComputedStyle(document.documentElement).backgroundColor : body;
  });

/** 0 (black) to 765 (white) from `rgb(r, g, b)` / `rgba(…)`. */
const brightness = (colour: string): number =>
  (colour.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).reduce((sum, channel) => sum + Number(channel), 0);

/** The help pages and what every page owes a keyboard and a dark-mode reader. */
describe('docs, keyboard and theme', () => {
  const suite = useConsoleSuite();

  it('/docs renders the chat completions operation from files of this relay only', async () => {
    const { page, watch, relay } = suite;
    const before = watch.requestedUrls.length;
    await page.goto('/docs');
    await page.getByText(CHAT_PATH, { exact: true }).first().waitFor();
    await page.getByText(CHAT_SUMMARY).first().waitFor();
    const requested = watch.requestedUrls.slice(before);
    expect(requested.length).toBeGreaterThan(1);
    expect(requested.filter((url) => new URL(url).origin !== relay.url)).toEqual([]);
    await suite.screenshot('08-docs');
  });

  it('a guide linked from /docs renders as a page of its own', async () => {
    const { page } = suite;
    await page.goto('/docs');
    const guideLink = page.locator('a[href^="/docs/guides/"]').first();
    const href = await guideLink.getAttribute('href');
    await guideLink.click();
    await page.waitForURL((url) => url.pathname === href);
    const heading = page.getByRole('heading', { level: 1 });
    await heading.first().waitFor();
    expect(((await heading.first().textContent()) ?? '').trim()).not.toBe('');
    expect(((await page.locator('main, article').first().textContent()) ?? '').length).toBeGreaterThan(200);
    await suite.screenshot('08-docs-guide');
  });

  it('Tab from the top reaches the skip link, then the navigation, each with a visible focus outline', async () => {
    const { page, relay } = suite;
    await signIn(page, relay.adminKey);
    // From the start of a freshly loaded page (the tab's session survives the reload).
    await page.reload();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    const stops: FocusedElement[] = [];
    for (let step = 0; step <= ADMIN_SECTIONS.length; step++) {
      await page.keyboard.press('Tab');
      stops.push(await focused(page));
    }
    expect(stops.map((stop) => stop.text)).toEqual(['Skip to content', ...ADMIN_SECTIONS]);
    for (const stop of stops) {
      expect(stop.outlineWidth).toBeGreaterThan(0);
      expect(stop.outlineStyle).not.toBe('none');
    }
    await suite.screenshot('10-keyboard-focus');
  });

  it('follows the system’s dark theme', async () => {
    const { page } = suite;
    await page.emulateMedia({ colorScheme: 'light' });
    const light = await pageBackground(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    const dark = await pageBackground(page);
    expect(dark).not.toBe(light);
    expect(brightness(dark)).toBeLessThan(brightness(light));
    await suite.screenshot('10-dark-theme');
    await page.emulateMedia({ colorScheme: 'light' });
  });
});
