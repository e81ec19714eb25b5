import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { newTrace } from './request-context';
import { accountUsage, type UsageSources } from './account-usage';

const logger = pino({ level: 'silent' });

const sources = (fields: Partial<UsageSources> = {}): UsageSources => ({
  reported: undefined,
  countPrompt: async () => 7,
  roughPrompt: () => 3,
  deliveredText: () => 'hello world',
  ...fields,
});

describe('accountUsage: the upstream, else the tokenizer, else the estimate (issue 27)', () => {
  it("takes the upstream's usage as it is, estimated nothing — at once, without a promise", () => {
    const trace = newTrace('req', performance.now());
    expect(accountUsage(logger, trace, sources({ reported: { promptTokens: 10, completionTokens: 5, cacheReadTokens: 4 } }))).toBeUndefined();
    expect(trace).toMatchObject({ promptTokens: 10, completionTokens: 5, cacheReadTokens: 4, usageEstimated: false });
  });

  it('counts the prompt and what was delivered with the tokenizer when the upstream says nothing', async () => {
    const trace = newTrace('req', performance.now());
    await accountUsage(logger, trace, sources());
    expect(trace).toMatchObject({ promptTokens: 7, completionTokens: 2, usageEstimated: true });
  });

  it("keeps the upstream's prompt and counts only the completion of a cut stream", async () => {
    const trace = newTrace('req', performance.now());
    await accountUsage(logger, trace, sources({ reported: { promptTokens: 10, completionTokens: 0, completionUnknown: true } }));
    expect(trace).toMatchObject({ promptTokens: 10, completionTokens: 2, usageEstimated: true });
  });

  it('estimates from lengths when the tokenizer fails, and never rejects', async () => {
    const trace = newTrace('req', performance.now());
    const failing = sources({ countPrompt: () => Promise.reject(new Error('no tokenizer')), deliveredText: () => { throw new Error('gone'); } });
    await expect(accountUsage(logger, trace, failing)).resolves.toBeUndefined();
    expect(trace).toMatchObject({ promptTokens: 3, completionTokens: 0, usageEstimated: true });
  });

  it("takes an endpoint's units, counts its uncounted text and works out unknown units", async () => {
    const trace = newTrace('req', performance.now(), 'audio_transcriptions');
    const reported = { promptTokens: 0, completionTokens: 0, units: 0, unitsUnknown: true as const, uncountedText: 'hello world' };
    await accountUsage(logger, trace, sources({ reported, estimateUnits: async () => 12 }));
    expect(trace).toMatchObject({ promptTokens: 2, units: 12, usageEstimated: true });
  });
});
