import { fireEvent, screen, waitFor } from '@testing-library/react';
import { bodiesOf, fakeClient, refusal, type FakeRoutes } from '../../testing/fake-client';
import { renderPage } from '../../testing/render-page';
import { PricesPage } from './prices-page';

// As the relay stores it: unset fields come back as null.
const table = { data: [{ model: 'gpt-4o', input: 2_500_000, output: 10_000_000, cache_read: null, image_variants: null }] };

type PutPrices = NonNullable<NonNullable<FakeRoutes['accounts']>['putPrices']>;

function openPrices(putPrices: PutPrices = (args) => ({ status: 200, body: args.body })) {
  const fake = fakeClient({ accounts: { getPrices: () => ({ status: 200, body: table }), putPrices } });
  renderPage(<PricesPage />, { client: fake.client });
  return fake;
}
const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: string, value: string) => fireEvent.change(input(label), { target: { value } });

describe('Prices page', () => {
  it('shows the table in dollars and saves it whole in micro-USD', async () => {
    const { calls } = openPrices();
    await waitFor(() => expect(input('Row 1: input (USD / 1M tokens)').value).toBe('2.5'));
    expect(screen.queryByText('Unsaved changes')).toBeNull();
    type('Row 1: output (USD / 1M tokens)', '12');
    expect(screen.getByText('Unsaved changes')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Add row' }));
    type('Row 2: model', 'claude-*');
    type('Row 2: input (USD / 1M tokens)', '3');
    type('Row 2: output (USD / 1M tokens)', '15');
    type('Row 2: cache read (USD / 1M tokens)', '0.3');
    fireEvent.click(screen.getByRole('button', { name: 'Save prices' }));

    expect(await screen.findByText('Saved 2 prices.')).toBeTruthy();
    expect(bodiesOf(calls, 'accounts.putPrices')).toEqual([
      {
        data: [
          { model: 'gpt-4o', input: 2_500_000, output: 12_000_000 },
          { model: 'claude-*', input: 3_000_000, output: 15_000_000, cache_read: 300_000 },
        ],
      },
    ]);
  });

  it('removes and reorders rows, the first matching row winning', async () => {
    const { calls } = openPrices();
    await waitFor(() => expect(input('Row 1: model').value).toBe('gpt-4o'));
    fireEvent.click(screen.getByRole('button', { name: 'Add row' }));
    type('Row 2: model', 'gpt-4o*');
    type('Row 2: input (USD / 1M tokens)', '1');
    type('Row 2: output (USD / 1M tokens)', '1');
    fireEvent.click(screen.getByRole('button', { name: 'Row 2: move up' }));
    expect(input('Row 1: model').value).toBe('gpt-4o*');
    fireEvent.click(screen.getByRole('button', { name: 'Row 2: remove' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save prices' }));
    await waitFor(() => expect(bodiesOf(calls, 'accounts.putPrices')).toEqual([{ data: [{ model: 'gpt-4o*', input: 1_000_000, output: 1_000_000 }] }]));
  });

  it('names the rows to fix and sends nothing while something is wrong', async () => {
    const { calls } = openPrices();
    await waitFor(() => expect(input('Row 1: model').value).toBe('gpt-4o'));
    type('Row 1: input (USD / 1M tokens)', 'two');
    fireEvent.click(screen.getByRole('button', { name: 'Save prices' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Nothing was saved');
    expect(alert.textContent).toContain('Row 1 (gpt-4o) · Input: "two" is not an amount');
    expect(bodiesOf(calls, 'accounts.putPrices')).toEqual([]);
  });

  it('shows the relay’s refusal of the table', async () => {
    openPrices(() => refusal(400, 'data.0.input: Number must be less than or equal to 1000000000000'));
    await waitFor(() => expect(input('Row 1: model').value).toBe('gpt-4o'));
    fireEvent.click(screen.getByRole('button', { name: 'Save prices' }));
    expect((await screen.findByRole('alert')).textContent).toContain('data.0.input: Number must be less than or equal to 1000000000000');
  });
});
