import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { CatalogueList } from '@chat-relay/contract';
import { bodiesOf, fakeClient } from '../../testing/fake-client';
import { renderPage } from '../../testing/render-page';
import { ModelsPage } from './models-page';

const list: CatalogueList = {
  dataset: { source: 'seed', origin: 'https://github.com/anomalyco/models.dev', commit: 'f3fc692299671838c7c65fd8126bf84d81a2e817', date: '2026-07-02', models: 2 },
  data: [
    { id: 'gpt-4o', provider: 'openai', family: 'openai', context_window: 128_000, max_output_tokens: 16_384, cost: { input: 2.5, output: 10 }, source: 'seed' },
    { id: 'house-*', max_output_tokens: 1000, source: 'override' },
  ],
};

function openModels() {
  const fake = fakeClient({
    catalogue: {
      listCatalogue: () => ({ status: 200, body: list }),
      listUnpricedModels: () => ({ status: 200, body: { data: [{ model: 'claude-house', upstream_model: 'house-model', channels: [{ id: 1, name: 'main' }] }] } }),
      putCatalogueOverride: (args) => ({ status: 201, body: { ...args.body, id: args.params.id } }),
      refreshCatalogue: () => ({ status: 200, body: { source: 'refresh', origin: 'upload', date: '2026-11-29T08:00:00.000Z', models: 3000, skipped: 0 } }),
    },
  });
  renderPage(<ModelsPage />, { client: fake.client });
  return fake;
}

describe('Models page', () => {
  it('lists the catalogue with its source, limits and list prices, and flags unpriced models', async () => {
    openModels();
    const table = await screen.findByRole('table', { name: 'Catalogue entries' });
    const gpt = within(table).getByText('gpt-4o').closest('tr') as HTMLElement;
    expect(within(gpt).getByText('128,000')).toBeTruthy();
    expect(within(gpt).getByText('$2.5')).toBeTruthy();
    expect(screen.getByText(/Seed: models.dev at f3fc692 \(2026-07-02\), 2 models/)).toBeTruthy();
    const unpriced = await screen.findByRole('list', { name: 'Unpriced models' });
    expect(unpriced.textContent).toMatch(/claude-house \(sent as house-model\) — on main/);
    fireEvent.change(screen.getByLabelText('Source'), { target: { value: 'override' } });
    expect(within(table).queryByText('gpt-4o')).toBeNull();
    expect(within(table).getByText('house-*')).toBeTruthy();
  });

  it('saves an override checked by the contract schema, and refuses one it refuses without sending it', async () => {
    const { calls } = openModels();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit gpt-4o' }));
    fireEvent.change(screen.getByLabelText('Fields to change (JSON)'), { target: { value: '{"max_tokens": 5}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save override' }));
    expect(await screen.findByText('Nothing was saved')).toBeTruthy();
    expect(bodiesOf(calls, 'catalogue.putCatalogueOverride')).toEqual([]);

    fireEvent.change(screen.getByLabelText('Fields to change (JSON)'), { target: { value: '{"max_output_tokens": 4096}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save override' }));
    expect(await screen.findByText('Saved the override of gpt-4o.')).toBeTruthy();
    expect(bodiesOf(calls, 'catalogue.putCatalogueOverride')).toEqual([{ max_output_tokens: 4096 }]);
  });

  it('draws at most 300 rows of a large catalogue, and says so', async () => {
    const many: CatalogueList = { ...list, data: Array.from({ length: 301 }, (_, n) => ({ id: `model-${n}`, source: 'refresh' as const })) };
    renderPage(<ModelsPage />, { client: fakeClient({ catalogue: { listCatalogue: () => ({ status: 200, body: many }), listUnpricedModels: () => ({ status: 200, body: { data: [] } }) } }).client });
    expect(await screen.findByText('Showing 300 of 301 entries: search to narrow them.')).toBeTruthy();
    expect(within(screen.getByRole('table', { name: 'Catalogue entries' })).getAllByRole('row')).toHaveLength(301);
  });

  it('refreshes from an uploaded api.json', async () => {
    const { calls } = openModels();
    await screen.findByRole('table', { name: 'Catalogue entries' });
    const json = { openai: { id: 'openai', models: { 'gpt-9': { id: 'gpt-9' } } } };
    const file = new File([JSON.stringify(json)], 'api.json', { type: 'application/json' });
    // jsdom's File may lack text(): the page reads it as browsers do.
    Object.defineProperty(file, 'text', { value: async () => JSON.stringify(json) });
    fireEvent.change(screen.getByLabelText('Refresh from models.dev api.json'), { target: { files: [file] } });
    expect(await screen.findByText('Loaded 3000 models from api.json.')).toBeTruthy();
    await waitFor(() => expect(bodiesOf(calls, 'catalogue.refreshCatalogue')).toEqual([json]));
  });
});
