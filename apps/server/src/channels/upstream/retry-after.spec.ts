import { retryAfterMsOf } from './retry-after';

const headers = (values: Record<string, string>) => (name: string) => values[name];

describe('retryAfterMsOf', () => {
  it("reads Azure's and OpenAI's retry-after-ms first, then retry-after in seconds or as a date, on a 429 or 503 only", () => {
    expect(retryAfterMsOf(429, headers({ 'retry-after-ms': '1500.5', 'retry-after': '9' }))).toBe(1501);
    expect(retryAfterMsOf(429, headers({ 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMsOf(503, headers({ 'retry-after': 'Wed, 21 Oct 2026 07:28:05 GMT' }), Date.parse('Wed, 21 Oct 2026 07:28:00 GMT'))).toBe(5000);
    expect(retryAfterMsOf(400, headers({ 'retry-after-ms': '100' }))).toBeUndefined();
    expect(retryAfterMsOf(429, headers({ 'retry-after-ms': 'soon', 'retry-after': 'later' }))).toBeUndefined();
    expect(retryAfterMsOf(429, headers({}))).toBeUndefined();
  });
});
