import { formatMicroUsd, formatPercent, microToUsdInput, parseUsdToMicro } from './format';

describe('money in the console', () => {
  it('shows micro-USD as dollars, with 4 decimals below a cent and 6 below $0.0001 (chart ticks stay distinct)', () => {
    expect(formatMicroUsd(12_340_000)).toBe('$12.34');
    expect(formatMicroUsd(1_500)).toBe('$0.0015');
    expect(formatMicroUsd(50)).toBe('$0.000050');
    expect(formatMicroUsd(100)).toBe('$0.0001');
    expect(formatMicroUsd(0)).toBe('$0.00');
  });

  it('reads typed dollars into micro-USD exactly, empty as no limit, and refuses anything else', () => {
    expect(parseUsdToMicro('5')).toBe(5_000_000);
    expect(parseUsdToMicro(' 0.000001 ')).toBe(1);
    expect(parseUsdToMicro('')).toBeNull();
    expect(() => parseUsdToMicro('-1')).toThrow('not an amount');
    expect(() => parseUsdToMicro('1e3')).toThrow('not an amount');
    expect(() => parseUsdToMicro('0.0000001')).toThrow('not an amount');
  });

  it('shows small error rates with two decimals', () => {
    expect(formatPercent(0.5)).toBe('50.0%');
    expect(formatPercent(0.0012)).toBe('0.12%');
  });
});

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
