import type { UsageSeries } from '@chat-relay/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { answer, fakeClient, refusal, type Api, type ArgsOf } from '../../testing/fake-client';
import { channelFixture, pageOf } from '../../testing/fixtures';
import { renderPage } from '../../testing/render-page';
import { OverviewPage } from './overview-page';

const totals = { requests: 1234, errors: 37, prompt_tokens: 50_000, completion_tokens: 12_500, cost: 4_560_000, cost_usd: '4.560000' };
const now = new Date();
const thisHour = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000).toISOString();

const seriesFor = (query: { bucket?: 'hour' | 'day'; group_by?: UsageSeries['group_by'] }): UsageSeries => {
  const groupBy = query.group_by ?? 'total';
  const point = (key: string | null, requests: number) => ({ ...totals, time: thisHour, key, requests, errors: 1 });
  return {
    from: thisHour,
    to: now.toISOString(),
    bucket: query.bucket ?? 'hour',
    group_by: groupBy,
    data: groupBy === 'channel' ? [point('3', 1000), point('9', 234)] : [point(null, 1234)],
    totals,
  };
};

function setup(overrides: { series?: (query: { bucket?: 'hour' | 'day'; group_by?: UsageSeries['group_by'] }) => UsageSeries } = {}) {
  const getUsage = jest.fn(async (args: ArgsOf<Api['accounts']['getUsage']>) => answer(200, (overrides.series ?? seriesFor)(args?.query ?? {})));
  const listChannels = jest.fn(async () => answer(200, pageOf([channelFixture({ id: 3, name: 'openai-main' })], 1, 1, 100)));
  const { client } = fakeClient({ accounts: { getUsage }, channels: { listChannels } });
  renderPage(<OverviewPage />, { client });
  return { getUsage, listChannels };
}

const card = (name: string) => within(screen.getByRole('group', { name })).getByText(/./, { selector: '.value' });

describe('OverviewPage', () => {
  it('shows the totals in the cards and a captioned figure per metric', async () => {
    const { getUsage } = setup();

    await waitFor(() => expect(card('Requests').textContent).toBe((1234).toLocaleString()));
    expect(card('Tokens').textContent).toBe((62_500).toLocaleString());
    expect(card('Cost').textContent).toBe('$4.56');
    expect(card('Error rate').textContent).toBe('3.0%');
    expect(screen.getAllByRole('figure').map((figure) => figure.querySelector('figcaption')?.textContent)).toEqual([
      'Requests',
      'Tokens',
      'Cost',
      'Error rate',
    ]);
    const query = getUsage.mock.calls[0]![0]?.query;
    expect(query).toMatchObject({ bucket: 'hour', group_by: 'total' });
  });

  it('asks for days over 30 days, groups by channel with the channel names, and tabulates the chart', async () => {
    const { getUsage, listChannels } = setup();
    await screen.findAllByRole('figure');

    fireEvent.change(screen.getByLabelText('Range'), { target: { value: '30d' } });
    fireEvent.change(screen.getByLabelText('Group by'), { target: { value: 'channel' } });

    await waitFor(() => expect(getUsage).toHaveBeenLastCalledWith(expect.objectContaining({ query: expect.objectContaining({ bucket: 'day', group_by: 'channel' }) })));
    expect(listChannels).toHaveBeenCalled();
    const requestsFigure = (await screen.findAllByRole('figure'))[0]!;
    const table = within(requestsFigure).getByRole('table', { hidden: true });
    await waitFor(() => expect(within(table).getAllByRole('columnheader', { hidden: true }).map((cell) => cell.textContent)).toEqual(['Time', 'openai-main', '#9']));
    // 30 daily rows, the last one (today) holding the requests.
    const rows = within(table).getAllByRole('row', { hidden: true }).slice(1);
    expect(rows).toHaveLength(30);
    expect(rows.at(-1)!.textContent).toContain('1K');
  });

  it('says what to do when the range has no requests', async () => {
    setup({ series: (query) => ({ ...seriesFor(query), data: [], totals: { ...totals, requests: 0, errors: 0, cost: 0 } }) });

    expect(await screen.findByText('No requests in this range yet')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Playground' }).getAttribute('href')).toBe('/playground');
    expect(card('Error rate').textContent).toBe('—');
    expect(screen.queryAllByRole('figure')).toHaveLength(0);
  });

  it('shows the relay’s refusal with its request id', async () => {
    const { client } = fakeClient({ accounts: { getUsage: async () => refusal(403, 'Not yours.', { requestId: 'req_usage_1' }) } });
    renderPage(<OverviewPage />, { client });

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Not yours.');
    expect(alert.textContent).toContain('req_usage_1');
  });
});
