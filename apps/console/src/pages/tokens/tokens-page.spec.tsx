import type { TokenCreated } from '@chat-relay/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { answer, fakeClient, refusal, type Api, type ArgsOf, type FakeRoutes } from '../../testing/fake-client';
import { pageOf, tokenFixture, windowFixture } from '../../testing/fixtures';
import { renderPage } from '../../testing/render-page';
import { TokensPage } from './tokens-page';

const tokens = [
  tokenFixture({ id: 5, name: 'ci', key_hint: 'sk-…Ab12' }),
  tokenFixture({
    id: 6,
    name: 'web',
    key_hint: 'sk-…Cd34',
    rate_limit: { rpm: 60, tpm: null, concurrency: null },
    periodic_limits: [
      { period: 'day', metric: 'cost', limit: 1_000_000 },
      { period: 'day', metric: 'requests', limit: 100 },
    ],
    windows: [windowFixture({ used: 850_000, limit: 1_000_000 }), windowFixture({ metric: 'requests', used: 100, limit: 100 })],
  }),
];
const secret = `sk-${'k'.repeat(48)}`;
const usageBucket = (key: string, requests: number) => ({
  key,
  requests,
  prompt_tokens: 10 * requests,
  completion_tokens: requests,
  cache_read_tokens: 0,
  cache_write_tokens: 0,
  cost: 1000 * requests,
  cost_usd: '0.001000',
});

function setup(overrides: FakeRoutes['tokens'] = {}) {
  const routes = {
    listTokens: jest.fn(async (_args: ArgsOf<Api['tokens']['listTokens']>) => answer(200, pageOf(tokens))),
    searchTokens: jest.fn(async (_args: ArgsOf<Api['tokens']['searchTokens']>) => answer(200, pageOf([tokens[1]!]))),
    createToken: jest.fn(async (args: ArgsOf<Api['tokens']['createToken']>) =>
      answer(201, { ...tokenFixture({ id: 7, name: args.body.name, key_hint: 'sk-…kkkk' }), key: secret } satisfies TokenCreated),
    ),
    batchTokens: jest.fn(async (args: ArgsOf<Api['tokens']['batchTokens']>) =>
      answer(200, { action: args.body.action, results: args.body.ids.map((id) => ({ id, status: 'ok' as const })) }),
    ),
    updateToken: jest.fn(async (args: ArgsOf<Api['tokens']['updateToken']>) => answer(200, tokenFixture({ id: Number(args!.params!.id), name: 'web' }))),
    getTokenUsage: jest.fn(async (args: ArgsOf<Api['tokens']['getTokenUsage']>) => {
      const byModel = args!.query?.group_by === 'model';
      const data = byModel ? [usageBucket('gpt-4o', 3), usageBucket('o3', 1)] : [usageBucket('2026-11-01', 4)];
      const { key: _key, ...total } = usageBucket('', 4);
      return answer(200, { token_id: 6, from: '2026-10-02T00:00:00.000Z', to: '2026-11-01T12:00:00.000Z', group_by: byModel ? ('model' as const) : ('day' as const), data, total });
    }),
  };
  const { client } = fakeClient({ tokens: { ...routes, ...overrides } });
  renderPage(<TokensPage />, { client });
  return routes;
}
const table = () => screen.findByRole('table', { name: 'API tokens' });
const rowOf = (name: string) => screen.getAllByRole('row').find((row) => within(row).queryByText(name, { exact: true }))!;

describe('TokensPage', () => {
  it('lists tokens by their key hints, a page of 20', async () => {
    const routes = setup();

    expect((await table()).textContent).toContain('sk-…Ab12');
    expect(routes.listTokens.mock.calls[0]![0]?.query).toEqual({ page: 1, per_page: 20 });
    expect(within(rowOf('web')).getByText('60 rpm')).toBeTruthy();
  });

  it('creates a token and shows its key once: Done removes it for good', async () => {
    const routes = setup();
    const writeText = jest.fn(async () => undefined);
    Object.assign(navigator, { clipboard: { writeText } });
    await table();

    fireEvent.click(screen.getByRole('button', { name: 'New token' }));
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'deploy' } });
    fireEvent.change(screen.getByLabelText('Quota (USD)'), { target: { value: '5' } });
    fireEvent.change(screen.getByLabelText('Requests per minute'), { target: { value: '60' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));

    const shown = await screen.findByTestId('new-token-key');
    expect(shown.textContent).toBe(secret);
    expect(routes.createToken.mock.calls[0]![0].body).toEqual({ name: 'deploy', quota_limit: 5_000_000, rate_limit: { rpm: 60 } });
    expect(screen.queryByRole('button', { name: 'Create token' })).toBeNull();
    await waitFor(() => expect(routes.listTokens).toHaveBeenCalledTimes(2));

    fireEvent.click(screen.getByRole('button', { name: 'Copy key' }));
    await screen.findByText('Copied');
    expect(writeText).toHaveBeenCalledWith(secret);

    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByTestId('new-token-key')).toBeNull();
    expect(document.body.textContent).not.toContain(secret);
  });

  it('shows the relay’s refusal of a field with the field and request id', async () => {
    setup({ createToken: async () => refusal(400, 'allowed_ips: not an address', { code: 'invalid_value', param: 'allowed_ips', requestId: 'req_tok_4' }) });
    await table();

    fireEvent.click(screen.getByRole('button', { name: 'New token' }));
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'deploy' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('allowed_ips: not an address');
    expect(alert.textContent).toContain('field allowed_ips');
    expect(alert.textContent).toContain('req_tok_4');
    expect(screen.queryByTestId('new-token-key')).toBeNull();
  });

  it('sends the selected ids to a batch action, and asks before deleting', async () => {
    const routes = setup();
    await table();
    expect((screen.getByRole('button', { name: 'Disable selected' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByRole('checkbox', { name: 'Select row 5' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select row 6' }));
    fireEvent.click(screen.getByRole('button', { name: 'Disable selected' }));

    expect(await screen.findByText('Disabled 2 tokens.')).toBeTruthy();
    expect(routes.batchTokens.mock.calls[0]![0].body).toEqual({ ids: [5, 6], action: 'disable' });
    expect((screen.getByRole('checkbox', { name: 'Select row 5' }) as HTMLInputElement).checked).toBe(false);

    fireEvent.click(screen.getByRole('checkbox', { name: 'Select row 6' }));
    const confirm = jest.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    fireEvent.click(screen.getByRole('button', { name: 'Delete selected' }));
    expect(routes.batchTokens).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Delete selected' }));

    expect(await screen.findByText('Deleted 1 token.')).toBeTruthy();
    expect(confirm).toHaveBeenCalledWith(expect.stringMatching(/^Delete 1 token\?/));
    expect(routes.batchTokens.mock.calls[1]![0].body).toEqual({ ids: [6], action: 'delete' });
    confirm.mockRestore();
  });

  it('searches by the typed text', async () => {
    const routes = setup();
    await table();

    fireEvent.change(screen.getByLabelText('Search tokens'), { target: { value: ' we ' } });

    await waitFor(() => expect(routes.searchTokens).toHaveBeenCalledWith(expect.objectContaining({ query: { q: 'we', page: 1, per_page: 20 } })));
    await waitFor(() => expect(screen.queryByText('ci', { exact: true })).toBeNull());
  });

  it('edits a token’s policy, sending only what changed', async () => {
    const routes = setup();
    await table();

    fireEvent.click(within(rowOf('web')).getByRole('button', { name: 'Edit' }));
    expect((screen.getByLabelText('Requests per minute') as HTMLInputElement).value).toBe('60');
    fireEvent.change(screen.getByLabelText('Requests per minute'), { target: { value: '120' } });
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'disabled' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('Saved token web.')).toBeTruthy();
    expect(routes.updateToken.mock.calls[0]![0]).toMatchObject({ params: { id: 6 }, body: { status: 'disabled', rate_limit: { rpm: 120 } } });
    expect(Object.keys(routes.updateToken.mock.calls[0]![0]!.body!)).toEqual(['status', 'rate_limit']);
  });

  it('shows a token’s usage by day and by model', async () => {
    const routes = setup();
    await table();

    fireEvent.click(within(rowOf('web')).getByRole('button', { name: 'Usage' }));

    const byModel = await screen.findByRole('table', { name: 'By model' });
    expect(within(byModel).getAllByRole('row').map((row) => row.firstChild?.textContent)).toEqual(['Model', 'gpt-4o', 'o3']);
    expect(within(screen.getByRole('table', { name: 'By day (UTC)' })).getByText('2026-11-01')).toBeTruthy();
    expect(routes.getTokenUsage.mock.calls.map((call) => [call[0]!.params!.id, call[0]!.query?.group_by])).toEqual([
      [6, 'day'],
      [6, 'model'],
    ]);
  });

  it('shows a bar per window in the list: used / limit, %, the reset, amber from 80 % and red at 100 %', async () => {
    setup();
    await table();

    const bars = within(rowOf('web')).getAllByRole('meter');
    expect(bars.map((bar) => bar.getAttribute('aria-label'))).toEqual(['Cost per day', 'Requests per day']);
    expect(bars.map((bar) => bar.closest('li')?.className)).toEqual(['window-bar window-warn', 'window-bar window-full']);
    expect(bars[0]!.getAttribute('aria-valuetext')).toBe('$0.85 of $1.00 (85%), resets in 5h 12m');
    expect(within(rowOf('web')).getByText('$0.85 / $1.00 · 85%')).toBeTruthy();
    expect(within(rowOf('web')).getAllByText('resets in 5h 12m')[0]!.getAttribute('title')).toMatch(/\(counted in UTC\)$/);
    expect(within(rowOf('ci')).queryByRole('meter')).toBeNull();
  });

  it('creates a token with periodic limits (cost in USD sent as micro-USD), a time zone and thresholds', async () => {
    const routes = setup();
    await table();

    fireEvent.click(screen.getByRole('button', { name: 'New token' }));
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'team' } });
    fireEvent.click(screen.getByText('Add limit'));
    fireEvent.change(screen.getByLabelText('Row 1: limit'), { target: { value: '20' } });
    fireEvent.click(screen.getByText('Add limit'));
    fireEvent.change(screen.getByLabelText('Row 2: metric'), { target: { value: 'requests' } });
    fireEvent.change(screen.getByLabelText('Row 2: period'), { target: { value: 'day' } });
    fireEvent.change(screen.getByLabelText('Row 2: limit'), { target: { value: '1.5' } });
    fireEvent.change(screen.getByLabelText('Time zone'), { target: { value: 'Europe/Paris' } });
    fireEvent.change(screen.getByLabelText('Alert thresholds (%)'), { target: { value: '50, 80, 100' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));

    expect((await screen.findByRole('alert')).textContent).toContain('Periodic limits: row 2 (requests per day): "1.5" is not a whole number above 0');
    expect(routes.createToken).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText('Row 2: limit'), { target: { value: '100' } });
    fireEvent.click(screen.getByText('Add limit'));
    fireEvent.click(screen.getByLabelText('Row 3: remove'));
    expect(screen.queryByLabelText('Row 3: limit')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));

    await screen.findByTestId('new-token-key');
    expect(routes.createToken.mock.calls[0]![0].body).toEqual({
      name: 'team',
      periodic_limits: [
        { period: 'day', metric: 'cost', limit: 20_000_000 },
        { period: 'day', metric: 'requests', limit: 100 },
      ],
      time_zone: 'Europe/Paris',
      alert_thresholds: [50, 80, 100],
    });
  });

  it('sets periodic limits on the selected tokens in one batch update', async () => {
    const routes = setup();
    await table();

    fireEvent.click(screen.getByRole('checkbox', { name: 'Select row 5' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select row 6' }));
    fireEvent.click(screen.getByText('Set limits on selected'));
    fireEvent.click(screen.getByText('Add limit'));
    fireEvent.change(screen.getByLabelText('Row 1: limit'), { target: { value: '5' } });
    fireEvent.click(screen.getByLabelText('Set alert thresholds'));
    fireEvent.change(screen.getByLabelText('Alert thresholds (%)'), { target: { value: '90' } });
    fireEvent.click(screen.getByText('Apply to selected'));

    expect(await screen.findByText('Updated 2 tokens.')).toBeTruthy();
    expect(routes.batchTokens.mock.calls[0]![0].body).toEqual({
      ids: [5, 6],
      action: 'update',
      update: { periodic_limits: [{ period: 'day', metric: 'cost', limit: 5_000_000 }], alert_thresholds: [90] },
    });
    expect(screen.queryByRole('button', { name: 'Apply to selected' })).toBeNull();
  });
});
