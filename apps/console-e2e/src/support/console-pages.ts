import type { Page } from 'playwright-core';

/** The console's sections in navigation order (apps/console/README.md). */
export const ADMIN_SECTIONS = ['Overview', 'Channels', 'Tokens', 'Assistants', 'Playground', 'Logs', 'Prices', 'Models', 'Fallbacks', 'Accounts', 'Webhooks'] as const;
export const ADMIN_ONLY_SECTIONS = ['Channels', 'Prices', 'Models', 'Fallbacks', 'Accounts', 'Webhooks'] as const;

export const consoleNav = (page: Page) => page.getByRole('navigation', { name: 'Console' });

/** Opens the console and signs in with a management key (the admin's or an account's). */
export async function signIn(page: Page, key: string): Promise<void> {
  await page.goto('/console/');
  await page.getByLabel('Management key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** Follows a navigation link and waits for the page's heading. */
export async function openSection(page: Page, name: string): Promise<void> {
  await consoleNav(page).getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
}

/** Samples `read()` every `everyMs` until `done()`; the distinct values seen, in order. */
export async function sampleUntil<T>(read: () => Promise<T>, done: () => Promise<boolean>, everyMs = 40, timeoutMs = 20_000): Promise<T[]> {
  const seen: T[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (seen.at(-1) !== value) seen.push(value);
    if (await done()) return seen;
    if (Date.now() > deadline) throw new Error(`still not done after ${timeoutMs} ms; seen: ${JSON.stringify(seen)}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
