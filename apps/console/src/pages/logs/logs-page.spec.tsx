import type { Account } from '@chat-relay/contract';
import { RelayApiError, type LogsCsvDownload } from '@chat-relay/client';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { answer, fakeClient, refusal, type Api, type ArgsOf } from '../../testing/fake-client';
import { channelFixture, logEntryFixture, pageOf, tokenFixture, userAccount } from '../../testing/fixtures';
import { locationSeen, renderPage } from '../../testing/render-page';
import { LogsPage } from './logs-page';

type ListLogsArgs = ArgsOf<Api['accounts']['listLogs']>;

function setup(options: { url?: string; total?: number; account?: Account; exportLogsCsv?: jest.Mock } = {}) {
  const listLogs = jest.fn(async (args: ListLogsArgs) =>
    answer(200, pageOf([logEntryFixture(), logEntryFixture({ id: 2, status: 502, error_code: 'upstream_error', request_id: 'req_log_2' })], options.total ?? 2, args?.query?.page ?? 1, 50)),
  );
  const { client } = fakeClient(
    {
      accounts: { listLogs },
      channels: { listChannels: async () => answer(200, pageOf([channelFixture({ id: 3, name: 'openai-main' })])) },
      tokens: { listTokens: async () => answer(200, pageOf([tokenFixture({ id: 5, name: 'ci' })])) },
    },
    options.exportLogsCsv ? { exportLogsCsv: options.exportLogsCsv } : {},
  );
  renderPage(<LogsPage />, { client, url: options.url ?? '/logs', account: options.account });
  return { listLogs };
}
const lastQuery = (listLogs: jest.Mock) => (listLogs.mock.calls.at(-1) as [ListLogsArgs])[0]?.query;

async function* chunksOf(...texts: string[]): AsyncIterable<Uint8Array> {
  for (const text of texts) yield new TextEncoder().encode(text);
}

describe('LogsPage', () => {
  it('loads the filters in the URL into the query and the form, and lists the page with names', async () => {
    const { listLogs } = setup({ url: '/logs?model=gpt-4o&status=502&page=2' });

    const table = await screen.findByRole('table', { name: 'Requests' });
    expect(lastQuery(listLogs)).toEqual({ model: 'gpt-4o', status: 502, page: 2, per_page: 50 });
    expect((screen.getByLabelText('Model') as HTMLInputElement).value).toBe('gpt-4o');
    expect((screen.getByLabelText('Status') as HTMLInputElement).value).toBe('502');
    const firstRow = within(table).getAllByRole('row')[1]!;
    await waitFor(() => expect(firstRow.textContent).toContain('openai-main'));
    expect(firstRow.textContent).toContain('ci');
    expect(firstRow.textContent).toContain('gpt-4o → gpt-4o-2024-08-06');
    expect(firstRow.textContent).toContain('$0.001500');
    expect(within(table).getAllByRole('row')[2]!.textContent).toContain('upstream_error');
  });

  it('applies the filters to the URL and the query, times in UTC, from the first page', async () => {
    const { listLogs } = setup({ url: '/logs?page=3' });
    await screen.findByRole('table', { name: 'Requests' });

    fireEvent.change(screen.getByLabelText('Token id'), { target: { value: '5' } });
    fireEvent.change(screen.getByLabelText('Account id'), { target: { value: '2' } });
    fireEvent.change(screen.getByLabelText('Endpoint'), { target: { value: 'embeddings' } });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-01T08:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply filters' }));

    const from = new Date(2026, 10, 1, 8, 0).toISOString();
    await waitFor(() => expect(lastQuery(listLogs)).toEqual({ token_id: 5, account_id: 2, endpoint: 'embeddings', from, page: 1, per_page: 50 }));
    expect(new URLSearchParams(locationSeen.search).get('from')).toBe(from);
    expect(new URLSearchParams(locationSeen.search).get('page')).toBeNull();
  });

  it('pages on the server, keeping the filters', async () => {
    const { listLogs } = setup({ url: '/logs?model=gpt-4o', total: 120 });
    await screen.findByRole('table', { name: 'Requests' });
    expect(screen.getByText(/1–50 of 120/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));

    await waitFor(() => expect(lastQuery(listLogs)).toEqual({ model: 'gpt-4o', page: 2, per_page: 50 }));
    expect(locationSeen.search).toBe('?model=gpt-4o&page=2');
  });

  it('hides the account filter from an account, which sees its own logs only', async () => {
    setup({ account: userAccount });
    await screen.findByRole('table', { name: 'Requests' });

    expect(screen.queryByLabelText('Account id')).toBeNull();
  });

  it('exports the filtered rows as a CSV download named by the relay', async () => {
    const exportLogsCsv = jest.fn(async (): Promise<LogsCsvDownload> => ({ filename: 'logs-2026-11-01.csv', requestId: 'req_csv', body: chunksOf('id,status\n', '1,200\n') }));
    const saved: Array<{ download: string; href: string }> = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ download: this.download, href: this.href });
    });
    URL.createObjectURL = jest.fn(() => 'blob:csv-1');
    URL.revokeObjectURL = jest.fn();
    setup({ url: '/logs?model=gpt-4o&page=2', exportLogsCsv });
    await screen.findByRole('table', { name: 'Requests' });

    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));

    await screen.findByText('Saved logs-2026-11-01.csv (16 B)');
    expect(exportLogsCsv).toHaveBeenCalledWith({ model: 'gpt-4o' }, expect.objectContaining({ signal: expect.any(AbortSignal) }));
    expect(saved).toEqual([{ download: 'logs-2026-11-01.csv', href: 'blob:csv-1' }]);
    click.mockRestore();
  });

  it('cancels an export under way', async () => {
    let release: () => void = () => undefined;
    async function* slow(): AsyncIterable<Uint8Array> {
      yield new TextEncoder().encode('id\n');
      await new Promise<void>((resolve) => (release = resolve));
      yield new TextEncoder().encode('1\n');
    }
    const exportLogsCsv = jest.fn(async (): Promise<LogsCsvDownload> => ({ filename: 'logs.csv', requestId: 'req_csv', body: slow() }));
    setup({ exportLogsCsv });
    await screen.findByRole('table', { name: 'Requests' });

    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await screen.findByText('Exporting… 3 B');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await act(async () => release());

    expect(await screen.findByText('Export cancelled')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
  });

  it('shows a refused export with the relay’s message and request id', async () => {
    const refused = new RelayApiError({ status: 403, message: 'Not your account.', type: 'permission_error', code: null, param: null, requestId: 'req_csv_403' });
    setup({ exportLogsCsv: jest.fn(async () => Promise.reject(refused)) });
    await screen.findByRole('table', { name: 'Requests' });

    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not export the logs');
    expect(alert.textContent).toContain('req_csv_403');
    expect((screen.getByRole('button', { name: 'Export CSV' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows the relay’s refusal with its request id', async () => {
    const { client } = fakeClient({
      accounts: { listLogs: async () => refusal(400, 'from must be before to', { param: 'from', requestId: 'req_logs_9' }) },
      channels: { listChannels: async () => answer(200, pageOf([])) },
      tokens: { listTokens: async () => answer(200, pageOf([])) },
    });
    renderPage(<LogsPage />, { client, url: '/logs' });

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('from must be before to');
    expect(alert.textContent).toContain('field from');
    expect(alert.textContent).toContain('req_logs_9');
  });
});
