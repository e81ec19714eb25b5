import type { Account } from '@chat-relay/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { bodiesOf, fakeClient, refusal, type FakeRoutes } from '../../testing/fake-client';
import { accountFixture, pageOf, windowFixture } from '../../testing/fixtures';
import { renderPage } from '../../testing/render-page';
import { AccountsPage } from './accounts-page';

const me = accountFixture({ id: 1, name: 'Admin', role: 'admin' });

function relayWith(accounts: Account[], extra: FakeRoutes['accounts'] = {}) {
  const fake = fakeClient({
    accounts: {
      listAccounts: () => ({ status: 200, body: pageOf(accounts) }),
      createAccount: (args) => {
        const { body } = args;
        const account = accountFixture({ id: 2, name: body.name, role: 'user', key_hint: 'ak-…9z9z' });
        accounts.push(account);
        return { status: 201, body: { ...account, access_key: 'ak-live-secret-access-key-9z9z' } };
      },
      ...extra,
    },
  });
  renderPage(<AccountsPage />, { client: fake.client, account: me });
  return fake;
}
const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr') as HTMLElement;
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('Accounts page', () => {
  it('shows what each account keeps of the Responses API against its bound (issue 26)', async () => {
    const keeper = accountFixture({ id: 3, name: 'Keeper', role: 'user', stored_responses: { count: 1_234, bytes: 5 * 1024 * 1024, max_count: 10_000, max_bytes: 100 * 1024 * 1024 } });
    relayWith([me, keeper]);
    const row = await rowOf('Keeper');
    expect(within(row).getByText(/5\.0 MB of 100\.0 MB/).textContent).toMatch(/1,234 · 5\.0 MB of 100\.0 MB/);
  });

  it('shows a new account’s access key once, copyable, and forgets it on Done', async () => {
    const writeText = jest.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { calls } = relayWith([me]);
    fireEvent.click(await screen.findByRole('button', { name: 'New account' }));
    type('Name', 'Team B');
    type('Quota (USD)', '25');
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));

    const key = await screen.findByTestId('new-account-key');
    expect(key.textContent).toBe('ak-live-secret-access-key-9z9z');
    expect(bodiesOf(calls, 'accounts.createAccount')).toEqual([{ name: 'Team B', role: 'user', status: 'active', quota_limit: 25_000_000 }]);
    fireEvent.click(screen.getByRole('button', { name: 'Copy key' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('ak-live-secret-access-key-9z9z'));
    expect(await rowOf('Team B')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByTestId('new-account-key')).toBeNull();
    expect(document.body.innerHTML).not.toContain('ak-live-secret-access-key');
    expect(within(await rowOf('Team B')).getByText('ak-…9z9z')).toBeTruthy();
  });

  it('shows the relay’s refusal to demote the signed-in admin', async () => {
    relayWith([me], { updateAccount: () => refusal(409, 'You cannot demote or disable the account you are signed in with.', { code: 'self_lockout' }) });
    fireEvent.click(within(await rowOf('Admin')).getByRole('button', { name: 'Edit' }));
    fireEvent.change(screen.getByLabelText('Role'), { target: { value: 'user' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save account' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('You cannot demote or disable the account you are signed in with.');
    expect(alert.textContent).toContain('req_refused');
  });

  it('edits the quota and deletes only after the confirmation', async () => {
    const team = accountFixture({ id: 3, name: 'Team C', role: 'user', quota_limit: 1_000_000 });
    const { calls } = relayWith([me, team], {
      updateAccount: () => ({ status: 200, body: { ...team, quota_limit: 2_500_000 } }),
      deleteAccount: () => ({ status: 204, body: undefined }),
    });
    fireEvent.click(within(await rowOf('Team C')).getByRole('button', { name: 'Edit' }));
    expect((screen.getByLabelText('Quota (USD)') as HTMLInputElement).value).toBe('1');
    type('Quota (USD)', '2.5');
    fireEvent.click(screen.getByRole('button', { name: 'Save account' }));
    expect(await screen.findByText('Saved account “Team C”.')).toBeTruthy();
    expect(bodiesOf(calls, 'accounts.updateAccount')).toEqual([{ quota_limit: 2_500_000 }]);

    const row = await rowOf('Team C');
    fireEvent.click(within(row).getByRole('button', { name: 'Delete' }));
    expect(calls.some((call) => call.route === 'accounts.deleteAccount')).toBe(false);
    fireEvent.click(within(row).getByRole('button', { name: 'Confirm delete' }));
    await waitFor(() => expect(calls.filter((call) => call.route === 'accounts.deleteAccount').map((call) => call.args['params'])).toEqual([{ id: 3 }]));
  });

  it('edits an account’s periodic limits and shows its windows as bars', async () => {
    const team = accountFixture({
      id: 4,
      name: 'Team D',
      role: 'user',
      periodic_limits: [{ period: 'month', metric: 'cost', limit: 100_000_000 }],
      windows: [windowFixture({ period: 'month', used: 40_000_000, limit: 100_000_000, resetsInMs: 3 * 86_400_000 + 2 * 3_600_000 + 30_000 })],
    });
    const { calls } = relayWith([me, team], { updateAccount: () => ({ status: 200, body: team }) });
    const row = await rowOf('Team D');
    expect(within(row).getByRole('meter', { name: 'Cost per month' }).getAttribute('aria-valuetext')).toBe('$40.00 of $100.00 (40%), resets in 3d 2h');
    expect(within(row).getByText('$40.00 / $100.00 · 40%').closest('li')?.className).toBe('window-bar window-ok');

    fireEvent.click(within(row).getByRole('button', { name: 'Edit' }));
    expect((screen.getByLabelText('Row 1: limit') as HTMLInputElement).value).toBe('100');
    type('Row 1: limit', '150');
    fireEvent.click(screen.getByText('Add limit'));
    type('Row 2: limit', '10000');
    fireEvent.change(screen.getByLabelText('Row 2: metric'), { target: { value: 'requests' } });
    type('Alert thresholds (%)', 'none');
    fireEvent.click(screen.getByRole('button', { name: 'Save account' }));
    expect(await screen.findByText('Saved account “Team D”.')).toBeTruthy();
    expect(bodiesOf(calls, 'accounts.updateAccount')).toEqual([
      {
        periodic_limits: [
          { period: 'month', metric: 'cost', limit: 150_000_000 },
          { period: 'day', metric: 'requests', limit: 10_000 },
        ],
        alert_thresholds: [],
      },
    ]);
  });
});
