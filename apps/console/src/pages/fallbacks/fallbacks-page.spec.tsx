import type { FallbackRule } from '@chat-relay/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { bodiesOf, fakeClient, refusal } from '../../testing/fake-client';
import { fallbackRuleFixture } from '../../testing/fixtures';
import { renderPage } from '../../testing/render-page';
import { FallbacksPage } from './fallbacks-page';

function relayWith(rules: FallbackRule[]) {
  const fake = fakeClient({
    fallbacks: {
      listFallbackRules: () => ({ status: 200, body: { data: rules } }),
      createFallbackRule: ({ body }) => {
        if (rules.some((rule) => rule.model === body.model)) return refusal(409, `a rule for ${body.model} exists`, { code: 'conflict' });
        const rule = fallbackRuleFixture({ id: 8, model: body.model, fallbacks: body.fallbacks, triggers: body.triggers ?? [], enabled: body.enabled ?? true });
        rules.push(rule);
        return { status: 201, body: rule };
      },
      updateFallbackRule: (args) => ({ status: 200, body: fallbackRuleFixture({ ...rules.find((rule) => rule.id === Number(args!.params!.id)), ...args!.body }) }),
      deleteFallbackRule: () => ({ status: 204, body: undefined }),
    },
  });
  renderPage(<FallbacksPage />, { client: fake.client });
  return fake;
}
const rowOf = async (model: string) => (await screen.findByText(model, { selector: 'code' })).closest('tr') as HTMLElement;

describe('Fallbacks page', () => {
  it('lists each rule’s ordered chain and triggers; creates one with opt-in triggers', async () => {
    const { calls } = relayWith([fallbackRuleFixture()]);
    const row = await rowOf('claude-sonnet-4*');
    expect(within(within(row).getByRole('list', { name: 'Fallbacks of claude-sonnet-4*' })).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'gpt-4o',
      'gemini-2.5-pro',
    ]);
    expect(within(row).getByText('Rate limited (429), Upstream error or overloaded (5xx), Timeout, No channel available')).toBeTruthy();

    fireEvent.click(screen.getByText('New fallback rule'));
    fireEvent.change(screen.getByLabelText('Model or glob'), { target: { value: 'gpt-4o-mini' } });
    fireEvent.change(screen.getByLabelText('Fallback models'), { target: { value: 'gpt-4.1-mini\ngpt-4o' } });
    fireEvent.click(screen.getByLabelText('Timeout'));
    fireEvent.click(screen.getByLabelText('Context window exceeded'));
    fireEvent.click(screen.getByText('Create rule'));

    expect(await screen.findByText('Created the fallback rule for gpt-4o-mini.')).toBeTruthy();
    expect(bodiesOf(calls, 'fallbacks.createFallbackRule')).toEqual([
      { model: 'gpt-4o-mini', fallbacks: ['gpt-4.1-mini', 'gpt-4o'], triggers: ['rate_limited', 'upstream_error', 'no_channel', 'context_length'], enabled: true },
    ]);
    expect(await rowOf('gpt-4o-mini')).toBeTruthy();
  });

  it('shows the relay’s refusal, edits a rule and deletes it after the confirmation', async () => {
    const { calls } = relayWith([fallbackRuleFixture({ id: 3, model: 'o3' })]);
    fireEvent.click(await screen.findByText('New fallback rule'));
    fireEvent.change(screen.getByLabelText('Model or glob'), { target: { value: 'o3' } });
    fireEvent.change(screen.getByLabelText('Fallback models'), { target: { value: 'o4-mini' } });
    fireEvent.click(screen.getByText('Create rule'));
    expect((await screen.findByRole('alert')).textContent).toContain('a rule for o3 exists');
    fireEvent.click(screen.getByText('Cancel'));

    fireEvent.click(within(await rowOf('o3')).getByText('Edit'));
    fireEvent.click(screen.getByLabelText('Enabled'));
    fireEvent.click(screen.getByText('Save rule'));
    expect(await screen.findByText('Saved the fallback rule for o3.')).toBeTruthy();
    expect(bodiesOf(calls, 'fallbacks.updateFallbackRule')).toEqual([{ enabled: false }]);

    fireEvent.click(within(await rowOf('o3')).getByText('Delete'));
    fireEvent.click(screen.getByText('Confirm delete'));
    await waitFor(() => expect(calls.filter((call) => call.route === 'fallbacks.deleteFallbackRule').map((call) => call.args['params'])).toEqual([{ id: 3 }]));
  });
});
