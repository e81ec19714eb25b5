import { lineLabel } from './line-labels';

const line = (key: string | null, other = false) => ({ id: 'g0', key, other, color: 'var(--chart-1)' });
const names = new Map([['3', 'openai-main']]);

describe('lineLabel', () => {
  it('names channels and tokens when known, by id otherwise', () => {
    expect(lineLabel(line('3'), 'channel', names)).toBe('openai-main');
    expect(lineLabel(line('4'), 'token', names)).toBe('#4');
  });

  it('shows models as they are, and says what a missing key means', () => {
    expect(lineLabel(line('gpt-4o'), 'model', names)).toBe('gpt-4o');
    expect(lineLabel(line(null), 'total', names)).toBe('All requests');
    expect(lineLabel(line(null), 'channel', names)).toBe('No channel');
    expect(lineLabel(line(null, true), 'model', names)).toBe('Other');
  });
});
