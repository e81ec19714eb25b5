import { ParameterRefusals } from './parameter-refusals';

describe('ParameterRefusals', () => {
  const at = new Date('2026-11-29T07:00:00.000Z');

  it('remembers per channel and upstream model, each field once, and forgets a channel when it changes', () => {
    const refusals = new ParameterRefusals();
    expect(refusals.of(1, 'gpt-4o')).toBeUndefined();
    expect(refusals.remember(1, 'gpt-4o', { field: 'top_k' }, at)).toBe(true);
    expect(refusals.remember(1, 'gpt-4o', { field: 'top_k' }, at)).toBe(false);
    refusals.remember(1, 'gpt-4o-mini', { field: 'reasoning_effort' }, at);
    refusals.remember(2, 'gpt-4o', { field: 'max_tokens', atMost: 16384 }, at);
    expect(refusals.of(1, 'gpt-4o')).toEqual([{ field: 'top_k', model: 'gpt-4o', since: at.toISOString() }]);
    expect(refusals.of(2, 'gpt-4o-mini')).toBeUndefined();
    expect(refusals.list(1).map((refusal) => `${refusal.model}:${refusal.field}`)).toEqual(['gpt-4o:top_k', 'gpt-4o-mini:reasoning_effort']);
    refusals.forget(1);
    expect(refusals.list(1)).toEqual([]);
    expect(refusals.of(2, 'gpt-4o')).toEqual([{ field: 'max_tokens', atMost: 16384, model: 'gpt-4o', since: at.toISOString() }]);
  });

  it('keeps the lower of two limits for one field', () => {
    const refusals = new ParameterRefusals();
    refusals.remember(1, 'm', { field: 'max_tokens', atMost: 8192 }, at);
    expect(refusals.remember(1, 'm', { field: 'max_tokens', atMost: 16384 }, at)).toBe(false);
    expect(refusals.remember(1, 'm', { field: 'max_tokens', atMost: 4096 }, at)).toBe(true);
    expect(refusals.of(1, 'm')).toEqual([{ field: 'max_tokens', atMost: 4096, model: 'm', since: at.toISOString() }]);
  });

  it('is bounded: 64 models a channel (the oldest forgotten first), 16 fields a model', () => {
    const refusals = new ParameterRefusals();
    for (let i = 0; i < 70; i += 1) refusals.remember(1, `model-${i}`, { field: 'top_k' }, at);
    expect(refusals.list(1)).toHaveLength(64);
    expect(refusals.of(1, 'model-0')).toBeUndefined();
    expect(refusals.of(1, 'model-69')).toBeDefined();
    for (let i = 0; i < 20; i += 1) refusals.remember(2, 'm', { field: `field_${i}` }, at);
    expect(refusals.of(2, 'm')).toHaveLength(16);
  });
});
