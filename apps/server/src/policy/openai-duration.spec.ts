import { formatOpenAiDuration } from './openai-duration';

describe('formatOpenAiDuration', () => {
  it.each([
    [0, '0s'],
    [-5, '0s'],
    [0.2, '1ms'],
    [20, '20ms'],
    [999, '999ms'],
    [1000, '1s'],
    [8640, '8.64s'],
    [1005, '1.005s'],
    [59_999.5, '1m0s'],
    [60_000, '1m0s'],
    [360_000, '6m0s'],
    [90_500, '1m30.5s'],
    [3_723_500, '1h2m3.5s'],
    [3_600_000, '1h0m0s'],
  ])('%d ms → %s', (milliseconds, expected) => {
    expect(formatOpenAiDuration(milliseconds)).toBe(expected);
  });

  it('writes every fraction of a second as it was written before its digits were tabled', () => {
    for (let fraction = 1; fraction < 1000; fraction++) {
      const digits = String(fraction).padStart(3, '0').replace(/0+$/, '');
      expect(formatOpenAiDuration(59_000 + fraction)).toBe(`59.${digits}s`);
    }
    expect(formatOpenAiDuration(1_050)).toBe('1.05s');
    expect(formatOpenAiDuration(1_500)).toBe('1.5s');
  });
});
