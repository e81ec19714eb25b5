import { fireEvent, screen, waitFor } from '@testing-library/react';
import { bodiesOf, fakeClient, fakeSession, relayError, type FakeResponse } from '../../testing/fake-client-b';
import { renderSignedIn } from '../../testing/render-b';
import { PricesPage } from './prices-page';

const table = { data: [{ model: 'gpt-4o', input: 2_500_000, output: 10_000_000 }] };

function openPrices(put: (body: unknown) => FakeResponse = (body) => ({ status: 200, body })) {
  const fake = fakeClient({ accounts: { getPrices: () => ({ status: 200, body: table }), putPrices: (args) => put(args['body']) } });
  renderSignedIn(<PricesPage />, fakeSession(fake.client));
  return fake;
}
const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: string, value: string) => fireEvent.change(input(label), { target: { value } });

describe('Prices page', () => {
  it('shows the table in dollars and saves it whole in micro-USD', async () => {
    const { calls } = openPrices();
    await waitFor(() => expect(input('Input (USD / 1M tokens), row 1').value).toBe('2.5'));
    type('Output (USD / 1M tokens), row 1', '12');
    expect(screen.getByText('Unsaved changes')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Add row' }));
    type('Model, row 2', 'claude-*');
    type('Input (USD / 1M tokens), row 2', '3');
    type('Output (USD / 1M tokens), row 2', '15');
    type('Cache read (USD / 1M tokens), row 2', '0.3');
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
    await waitFor(() => expect(input('Model, row 1').value).toBe('gpt-4o'));
    fireEvent.click(screen.getByRole('button', { name: 'Add row' }));
    type('Model, row 2', 'gpt-4o*');
    type('Input (USD / 1M tokens), row 2', '1');
    type('Output (USD / 1M tokens), row 2', '1');
    fireEvent.click(screen.getByRole('button', { name: 'Move row 2 up' }));
    expect(input('Model, row 1').value).toBe('gpt-4o*');
    fireEvent.click(screen.getByRole('button', { name: 'Remove row 2' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save prices' }));
    await waitFor(() => expect(bodiesOf(calls, 'accounts.putPrices')).toEqual([{ data: [{ model: 'gpt-4o*', input: 1_000_000, output: 1_000_000 }] }]));
  });

  it('names the rows to fix and sends nothing while something is wrong', async () => {
    const { calls } = openPrices();
    await waitFor(() => expect(input('Model, row 1').value).toBe('gpt-4o'));
    type('Input (USD / 1M tokens), row 1', 'two');
    fireEvent.click(screen.getByRole('button', { name: 'Save prices' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Nothing was saved');
    expect(alert.textContent).toContain('Row 1 (gpt-4o) · Input: "two" is not an amount');
    expect(bodiesOf(calls, 'accounts.putPrices')).toEqual([]);
  });

  it('shows the relay’s refusal of the table', async () => {
    openPrices(() => relayError(400, 'data.0.input: Number must be less than or equal to 1000000000000'));
    await waitFor(() => expect(input('Model, row 1').value).toBe('gpt-4o'));
    fireEvent.click(screen.getByRole('button', { name: 'Save prices' }));
    expect((await screen.findByRole('alert')).textContent).toContain('data.0.input: Number must be less than or equal to 1000000000000');
  });
});
