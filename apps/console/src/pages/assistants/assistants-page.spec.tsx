import type { Assistant } from '@chat-relay/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { bodiesOf, fakeClient, refusal, type FakeRoutes } from '../../testing/fake-client';
import { accountFixture, assistantFixture, pageOf } from '../../testing/fixtures';
import { renderPage } from '../../testing/render-page';
import { AssistantsPage } from './assistants-page';

const models = { object: 'list' as const, data: [{ id: 'gpt-4o', object: 'model' as const, created: 1, owned_by: 'relay' }] };

function relayWith(assistants: Assistant[], extra: FakeRoutes['assistants'] = {}, account = accountFixture()) {
  const fake = fakeClient({
    accounts: { listCallerModels: () => ({ status: 200, body: models }) },
    assistants: {
      listAssistants: () => ({ status: 200, body: pageOf(assistants) }),
      createAssistant: (args) => {
        const created = assistantFixture({ ...(args['body'] as Partial<Assistant>), id: 'g-new1' });
        assistants.push(created);
        return { status: 201, body: created };
      },
      ...extra,
    },
  });
  renderPage(<AssistantsPage />, { client: fake.client, account });
  return fake;
}
const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr') as HTMLElement;
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('Assistants page', () => {
  it('shows the model name callers use, ready to copy', async () => {
    const writeText = jest.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    relayWith([assistantFixture({ id: 'g-abc123', models: null })]);
    const row = await rowOf('Support bot');
    expect(await within(row).findByText('gpt-4o-gizmo-g-abc123')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('gpt-4o-gizmo-g-abc123'));
  });

  it('creates an assistant from the form and says its id', async () => {
    const { calls } = relayWith([]);
    expect(await screen.findByText('No assistants yet')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'New assistant' }));
    type('Name', 'Translator');
    type('Instructions', 'Translate to French.');
    type('Models', 'gpt-4o');
    fireEvent.click(screen.getByRole('button', { name: 'Create assistant' }));
    expect(await screen.findByText('Created assistant “Translator” (g-new1).')).toBeTruthy();
    expect(bodiesOf(calls, 'assistants.createAssistant')).toEqual([expect.objectContaining({ name: 'Translator', instructions: 'Translate to French.', models: ['gpt-4o'] })]);
    expect(within(await rowOf('Translator')).getByText('gpt-4o-gizmo-g-new1')).toBeTruthy();
  });

  it('shows the relay’s refusal of a taken id', async () => {
    relayWith([], { createAssistant: () => refusal(409, "A custom assistant with id 'g-taken' already exists.", { code: 'assistant_exists' }) });
    fireEvent.click(await screen.findByRole('button', { name: 'New assistant' }));
    type('Name', 'Dup');
    type('ID', 'g-taken');
    fireEvent.click(screen.getByRole('button', { name: 'Create assistant' }));
    expect((await screen.findByRole('alert')).textContent).toContain("A custom assistant with id 'g-taken' already exists.");
  });

  it('edits and deletes the assistant of the account that owns it', async () => {
    const owned = assistantFixture({ id: 'g-shared', account_id: 7, name: 'Shared id' });
    const { calls } = relayWith([owned], {
      updateAssistant: () => ({ status: 200, body: { ...owned, visibility: 'public' } }),
      deleteAssistant: () => ({ status: 204, body: undefined }),
    });
    expect(within(await rowOf('Shared id')).getByText(/account #7/)).toBeTruthy();
    fireEvent.click(within(await rowOf('Shared id')).getByRole('button', { name: 'Edit' }));
    fireEvent.change(screen.getByLabelText('Visibility'), { target: { value: 'public' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save assistant' }));
    await waitFor(() => expect(calls.filter((call) => call.route === 'assistants.updateAssistant').map((call) => call.args)).toEqual([
      { params: { id: 'g-shared' }, query: { account_id: 7 }, body: { visibility: 'public' } },
    ]));

    const row = await rowOf('Shared id');
    fireEvent.click(within(row).getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(row).getByRole('button', { name: 'Confirm delete' }));
    await waitFor(() => expect(calls.filter((call) => call.route === 'assistants.deleteAssistant').map((call) => call.args['query'])).toEqual([{ account_id: 7 }]));
  });

  it('does not name the owning account to an account, which sees only its own', async () => {
    relayWith([assistantFixture({ account_id: 4 })], {}, accountFixture({ id: 4, role: 'user' }));
    const row = await rowOf('Support bot');
    expect(within(row).queryByText(/account #/)).toBeNull();
  });

  it('offers publishing to the admin only; an account may make one published before private (issue 26)', async () => {
    const optionsOf = () => within(screen.getByLabelText('Visibility')).getAllByRole('option').map((option) => (option as HTMLOptionElement).value);
    relayWith([assistantFixture({ id: 'g-old', name: 'Old public', account_id: 4, visibility: 'public' }), assistantFixture({ id: 'g-own', name: 'Own', account_id: 4 })], {}, accountFixture({ id: 4, role: 'user' }));
    fireEvent.click(await screen.findByRole('button', { name: 'New assistant' }));
    expect(optionsOf()).toEqual(['private']);
    expect(screen.getByText(/Only the admin publishes assistants/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(await rowOf('Own')).getByRole('button', { name: 'Edit' }));
    expect(optionsOf()).toEqual(['private']);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(await rowOf('Old public')).getByRole('button', { name: 'Edit' }));
    expect(optionsOf()).toEqual(['private', 'public']);
  });
});
