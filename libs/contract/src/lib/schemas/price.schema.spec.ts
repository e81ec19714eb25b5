import { PriceSchema } from './price.schema';

const price = { model: 'gpt-5*', input: 1_250_000, output: 10_000_000 };
const paths = (value: unknown) => {
  const result = PriceSchema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.path);
};

describe('PriceSchema: what passes through', () => {
  it('takes a price per call by hosted tool kind, a multiplier per tier (three decimals at most) and an audio output price', () => {
    const full = { ...price, tool_calls: { web_search: 10_000, code_execution: 30_000 }, service_tiers: { priority: 1.75, flex: 0.5 }, audio_output: 80_000_000 };
    expect(PriceSchema.parse(full)).toEqual(full);
    expect(PriceSchema.parse({ ...price, tool_calls: null, service_tiers: null, audio_output: null })).toMatchObject({ tool_calls: null });
  });

  it('refuses an unknown tool kind, a fractional or negative price, and a multiplier that is zero, too large or too precise', () => {
    expect(paths({ ...price, tool_calls: { teleport: 1 } })).toEqual([['tool_calls', 'teleport']]);
    expect(paths({ ...price, tool_calls: { web_search: 0.5 } })).toEqual([['tool_calls', 'web_search']]);
    expect(paths({ ...price, service_tiers: { priority: 0 } })).toEqual([['service_tiers', 'priority']]);
    expect(paths({ ...price, service_tiers: { priority: 101 } })).toEqual([['service_tiers', 'priority']]);
    expect(paths({ ...price, service_tiers: { priority: 1.0005 } })).toEqual([['service_tiers', 'priority']]);
    expect(paths({ ...price, service_tiers: { 'Priority!': 2 } })).toEqual([['service_tiers', 'Priority!']]);
    expect(paths({ ...price, audio_output: -1 })).toEqual([['audio_output']]);
  });
});

describe('PriceSchema: only the units that apply, free on purpose (issue 28)', () => {
  it('takes an entry without token prices, and a free one', () => {
    expect(PriceSchema.safeParse({ model: 'sora-2', video_second: 100_000 }).success).toBe(true);
    expect(PriceSchema.safeParse({ model: 'local-llama*', free: true }).success).toBe(true);
    expect(PriceSchema.safeParse({ model: 'm', input: null, output: null, free: false }).success).toBe(true);
  });

  it('refuses one token price without the other, and a free flag that is not a boolean', () => {
    expect(PriceSchema.safeParse({ model: 'm', input: 1 }).success).toBe(false);
    expect(PriceSchema.safeParse({ model: 'm', output: 1, input: null }).success).toBe(false);
    expect(PriceSchema.safeParse({ model: 'm', input: 1, output: 1, free: 'yes' }).success).toBe(false);
  });
});
