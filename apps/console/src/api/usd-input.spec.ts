import { parseUsdToMicro } from './format';
import { microToUsdInput } from './usd-input';

describe('microToUsdInput', () => {
  it('writes micro-USD as the dollars a person would type, and reads back the same amount', () => {
    expect(microToUsdInput(1_250_000)).toBe('1.25');
    expect(microToUsdInput(10_000_000)).toBe('10');
    expect(microToUsdInput(1)).toBe('0.000001');
    expect(microToUsdInput(0)).toBe('0');
    expect(microToUsdInput(null)).toBe('');
    for (const micro of [0, 1, 999_999, 2_500_000, 123_456_789]) expect(parseUsdToMicro(microToUsdInput(micro))).toBe(micro);
  });
});
