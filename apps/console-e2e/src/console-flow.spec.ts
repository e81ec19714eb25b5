import { ADMIN_SECTIONS, consoleNav } from './support/console-pages';
import { useConsoleSuite } from './support/console-suite';

/**
 * The operator's first session, in order: sign in, add a channel, issue a token, try it in the
 * playground, find the request in the logs and on the overview, then hand an account its own key.
 * Each test continues where the previous one left the page.
 */
describe('console flow (admin, then an account)', () => {
  const suite = useConsoleSuite();

  it('refuses a wrong key with the relay’s message and request id, then signs the admin in', async () => {
    const { page, watch, relay } = suite;
    await page.goto('/console/');
    await page.getByLabel('Management key').fill('not-a-key-of-this-relay-000000000');
    watch.expectFailure({ path: '/api/account', status: 401 });
    const [refused] = await Promise.all([
      page.waitForResponse((response) => new URL(response.url()).pathname === '/api/account'),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    expect(refused.status()).toBe(401);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Could not sign in');
    const shownRequestId = await alert.locator('code').textContent();
    expect(shownRequestId).toBe(await refused.headerValue('x-request-id'));

    await page.getByLabel('Management key').fill(relay.adminKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(await consoleNav(page).getByRole('link').allTextContents()).toEqual([...ADMIN_SECTIONS, 'Docs']);
    await suite.screenshot('01-signed-in');
  });

  it('keeps the admin signed in across a reload of the tab', async () => {
    await suite.page.reload();
    await suite.page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(await suite.page.getByLabel('Management key').count()).toBe(0);
  });
});
