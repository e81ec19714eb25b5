import { lost } from '../../testing/lost';
import { bridgeRequest } from '../testing/bridge-request';

const effortOf = (fields: Record<string, unknown>) => {
  const { request, warnings } = bridgeRequest(fields);
  return { effort: request.reasoning_effort, warnings };
};

describe('convertMessagesToChat: thinking and output_config.effort → reasoning_effort', () => {
  it.each([
    [1024, 'low'],
    [4095, 'low'],
    [4096, 'medium'],
    [16383, 'medium'],
    [16384, 'high'],
    [31999, 'high'],
  ])('enabled thinking with budget_tokens %d → %s', (budget, effort) => {
    expect(effortOf({ max_tokens: 32000, thinking: { type: 'enabled', budget_tokens: budget } })).toEqual({ effort, warnings: [] });
  });

  it('adaptive → medium; disabled or absent → nothing sent', () => {
    expect(effortOf({ thinking: { type: 'adaptive' } }).effort).toBe('medium');
    expect(bridgeRequest({ thinking: { type: 'disabled' } }).request).not.toHaveProperty('reasoning_effort');
    expect(bridgeRequest({}).request).not.toHaveProperty('reasoning_effort');
  });

  it('output_config.effort wins over the budget when present, also without thinking', () => {
    expect(effortOf({ thinking: { type: 'enabled', budget_tokens: 20000 }, max_tokens: 30000, output_config: { effort: 'low' } }).effort).toBe('low');
    expect(effortOf({ output_config: { effort: 'medium' } }).effort).toBe('medium');
  });

  it('disabled thinking sends no effort even when output_config names one', () => {
    expect(bridgeRequest({ thinking: { type: 'disabled' }, output_config: { effort: 'high' } }).request).not.toHaveProperty('reasoning_effort');
  });

  it('efforts Chat Completions lacks (xhigh, max) are sent as high, with a warning', () => {
    for (const effort of ['xhigh', 'max']) {
      expect(effortOf({ output_config: { effort } })).toEqual({ effort: 'high', warnings: [lost('output_config.effort', 'mapped', { from: effort, to: 'high' })] });
    }
  });

  it('between_tools reads as medium, with a warning', () => {
    expect(effortOf({ thinking: { type: 'between_tools' } })).toEqual({ effort: 'medium', warnings: [lost('thinking', 'mapped', { from: 'between_tools', to: 'medium' })] });
  });
});
