import type { Price } from '@chat-relay/contract';
import { toneWav, wavDurationSeconds } from '@chat-relay/upstream-sim';
import { sseDataOf } from './sse-events';
import { usageRowsFor } from './usage-rows-for';
import { errorOf, formOf, modelCalls, startEndpointsRelay, type Answer, type EndpointsE2e } from './endpoints-e2e';

/**
 * SPEC §7a/§8: each endpoint beside chat is charged by its own unit from the price table — one
 * usage row with its endpoint, units, tokens and cost — the token's quota_used is the sum of
 * those rows, and a request whose reservation bound does not fit what is left is refused before
 * the upstream hears of it.
 */
const PRICES: Price[] = [
  { model: 'gpt-3.5-turbo-instruct', input: 1_500_000, output: 2_000_000 },
  { model: 'text-embedding-3-small', input: 2_000_000, output: 0 },
  { model: 'omni-moderation-latest', input: 1_000_000, output: 0 },
  { model: 'rerank-english-v3.0', input: 0, output: 0, search_unit: 2_000 },
  { model: 'dall-e-2', input: 0, output: 0, image: 20_000, image_variants: { '256x256': 16_000 } },
  // No plain `image` price: every dall-e-3 image is priced by its variant (standard by default).
  { model: 'dall-e-3', input: 0, output: 0, image_variants: { 'hd/1024x1792': 120_000, hd: 80_000, standard: 40_000 } },
  { model: 'gpt-image-1', input: 5_000_000, output: 40_000_000, image_variants: { 'high/1536x1024': 250_000, medium: 63_000 } },
  { model: 'tts-1', input: 0, output: 0, characters: 15_000_000 },
  { model: 'whisper-1', input: 0, output: 0, audio_minute: 6_000 },
];
const LIMIT = 100_000_000;
/** 2.5 s of 24 kHz 16-bit mono: its header says so, whatever the bytes are named. */
const WAV = toneWav(2.5);
const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

type Usage = { prompt_tokens: number; completion_tokens: number; total_tokens: number };

describe('e2e: accounting of the endpoints beside chat', () => {
  let e2e: EndpointsE2e;

  beforeAll(async () => {
    e2e = await startEndpointsRelay();
    await e2e.setPrices(PRICES);
  });
  afterAll(() => e2e.close());
  beforeEach(async () => {
    e2e.sim.reset();
    await e2e.setQuota(LIMIT);
  });

  /** The request's one row, successful, on the channel, with `expected`; then its cost. */
  async function rowOf(answer: Answer, expected: Record<string, unknown>): Promise<number> {
    expect(answer.status).toBe(200);
    const [row] = await usageRowsFor(e2e, [answer.requestId]);
    expect(row).toMatchObject({ status: 200, channelId: e2e.channel.id, attempts: 1, errorCode: null, ...expected });
    return row!.cost;
  }

  /** quota_used is the sum of the rows' costs; nothing left reserved; one upstream call each. */
  async function expectQuotaIsTheSum(costs: number[]): Promise<void> {
    expect(await e2e.quotaUsed()).toBe(costs.reduce((sum, cost) => sum + cost, 0));
    expect(e2e.openReservations()).toBe(0);
    expect(modelCalls(e2e.sim)).toHaveLength(costs.length);
  }

  const completionBody = { model: 'gpt-3.5-turbo-instruct', prompt: 'Say this is a test', max_tokens: 7 };

  it('completions: per token, streamed (usage asked for or not) as not', async () => {
    const completion = await e2e.postJson('/v1/completions', completionBody);
    const used = (completion.json as { usage: Usage }).usage;
    expect(used.completion_tokens).toBeGreaterThan(0);
    const tokens = { promptTokens: used.prompt_tokens, completionTokens: used.completion_tokens };
    const cost = Math.ceil(used.prompt_tokens * 1.5 + used.completion_tokens * 2);
    const costs = [await rowOf(completion, { endpoint: 'completions', units: 0, stream: false, ...tokens, cost })];

    // The same tokens, counted by the upstream (never estimated), whether the caller asked for them.
    for (const streamOptions of [{ stream_options: { include_usage: true } }, {}]) {
      const streamed = await e2e.postJson('/v1/completions', { ...completionBody, stream: true, ...streamOptions });
      const chunks = sseDataOf(streamed.bytes.toString('utf8'));
      expect(chunks.at(-1)).toBe('[DONE]');
      const shown = chunks.filter((data) => data !== '[DONE]').flatMap((data) => (JSON.parse(data) as { usage?: Usage | null }).usage ?? []);
      expect(shown).toEqual('stream_options' in streamOptions ? [used] : []);
      costs.push(await rowOf(streamed, { endpoint: 'completions', stream: true, usageEstimated: false, ...tokens, cost }));
    }
    await expectQuotaIsTheSum(costs);
  });

  it('embeddings per input token; moderations per token the relay counts itself', async () => {
    const embeddings = await e2e.postJson('/v1/embeddings', { model: 'text-embedding-3-small', input: ['hello world', 'the cat sat on the mat'] });
    expect((embeddings.json as { usage: { prompt_tokens: number } }).usage.prompt_tokens).toBe(8);
    const costs = [await rowOf(embeddings, { endpoint: 'embeddings', units: 0, promptTokens: 8, completionTokens: 0, cost: 16 })];

    // OpenAI reports no tokens for moderations: the relay counts the input, and says so.
    const moderation = await e2e.postJson('/v1/moderations', { input: 'I will kill you' });
    const [moderated] = await usageRowsFor(e2e, [moderation.requestId]);
    expect(moderated!.promptTokens).toBeGreaterThan(0);
    costs.push(await rowOf(moderation, { endpoint: 'moderations', usageEstimated: true, cost: moderated!.promptTokens }));
    await expectQuotaIsTheSum(costs);
  });

  it('rerank per search unit (a query over up to 100 documents)', async () => {
    const documents = Array.from({ length: 150 }, (_, index) => `document ${index} about cats`);
    const rerank = await e2e.postJson('/v1/rerank', { model: 'rerank-english-v3.0', query: 'cats', documents });
    await expectQuotaIsTheSum([await rowOf(rerank, { endpoint: 'rerank', units: 2, cost: 4_000 })]);
  });

  it('images per image by quality and size; gpt-image tokens on top', async () => {
    const generate = (body: Record<string, unknown>) => e2e.postJson('/v1/images/generations', { prompt: 'a cat', ...body });
    const costs = [
      await rowOf(await generate({ model: 'dall-e-2', n: 3, size: '256x256' }), { endpoint: 'images', units: 3, cost: 48_000 }),
      await rowOf(await generate({ model: 'dall-e-3', quality: 'hd', size: '1024x1792' }), { endpoint: 'images', units: 1, cost: 120_000 }),
      // hd at a size without its own price: the quality's price; nothing said: OpenAI's standard.
      await rowOf(await generate({ model: 'dall-e-3', quality: 'hd', size: '1024x1024' }), { endpoint: 'images', units: 1, cost: 80_000 }),
      await rowOf(await generate({ model: 'dall-e-3' }), { endpoint: 'images', units: 1, cost: 40_000 }),
    ];
    const gptImage = await generate({ model: 'gpt-image-1', quality: 'high', size: '1536x1024' });
    const imageUsage = (gptImage.json as { usage: { input_tokens: number; output_tokens: number } }).usage;
    expect(imageUsage.output_tokens).toBe(6_240);
    const gptImageCost = Math.ceil(imageUsage.input_tokens * 5 + 6_240 * 40) + 250_000;
    costs.push(await rowOf(gptImage, { endpoint: 'images', units: 1, promptTokens: imageUsage.input_tokens, completionTokens: 6_240, cost: gptImageCost }));
    const edit = await e2e.postForm('/v1/images/edits', formOf({ model: 'dall-e-2', prompt: 'a hat', n: '2', size: '256x256' }, [['image', png, 'a.png', 'image/png']]));
    costs.push(await rowOf(edit, { endpoint: 'images', units: 2, cost: 32_000 }));
    await expectQuotaIsTheSum(costs);
  });

  it('speech per million input characters (characters, not bytes or tokens)', async () => {
    const input = 'Hello there, this is the relay speaking: é and 👋 count as one character each.';
    const characters = [...input].length;
    expect(Buffer.byteLength(input)).toBeGreaterThan(characters);
    const speech = await e2e.postJson('/v1/audio/speech', { model: 'tts-1', input, voice: 'alloy', response_format: 'wav' });
    expect(speech.headers.get('content-type')).toBe('audio/wav');
    expect(wavDurationSeconds(speech.bytes)).toBeGreaterThan(0);
    await expectQuotaIsTheSum([await rowOf(speech, { endpoint: 'audio_speech', units: characters, cost: characters * 15 })]);
  });

  it('transcriptions and translations per audio minute, charged by the second', async () => {
    // 6,000 a minute is 100 a second. The WAV header says 2.5 s; whisper's json usage whole seconds (3).
    expect(wavDurationSeconds(WAV)).toBe(2.5);
    const transcribe = (route: string, format: string) =>
      e2e.postForm(route, formOf({ model: 'whisper-1', response_format: format }, [['file', WAV, 'a.wav', 'audio/wav']]));
    const costs = [
      await rowOf(await transcribe('/v1/audio/transcriptions', 'text'), { endpoint: 'audio_transcriptions', units: 2.5, usageEstimated: true, cost: 250 }),
      await rowOf(await transcribe('/v1/audio/transcriptions', 'json'), { endpoint: 'audio_transcriptions', units: 3, usageEstimated: false, cost: 300 }),
      // A translation's answer has no usage: the header's length.
      await rowOf(await transcribe('/v1/audio/translations', 'json'), { endpoint: 'audio_transcriptions', units: 2.5, cost: 250 }),
    ];
    await expectQuotaIsTheSum(costs);
  });

  const overBound: Array<[string, string, () => Promise<Answer>]> = [
    ['completions', 'max_tokens', () => e2e.postJson('/v1/completions', { model: 'gpt-3.5-turbo-instruct', prompt: 'Say this is a test', max_tokens: 500 })],
    ['streamed completions', 'max_tokens', () => e2e.postJson('/v1/completions', { ...completionBody, stream: true })],
    ['moderations', 'less input', () => e2e.postJson('/v1/moderations', { input: 'I will kill you' })],
    ['embeddings', 'inputs', () => e2e.postJson('/v1/embeddings', { model: 'text-embedding-3-small', input: 'hello world' })],
    ['rerank', 'documents', () => e2e.postJson('/v1/rerank', { model: 'rerank-english-v3.0', query: 'cats', documents: ['a cat', 'a dog'] })],
    ['images (dall-e-3 hd/1024x1792)', 'images', () => e2e.postJson('/v1/images/generations', { model: 'dall-e-3', prompt: 'a cat', quality: 'hd', size: '1024x1792' })],
    ['images (dall-e-3, OpenAI’s default quality and size)', 'images', () => e2e.postJson('/v1/images/generations', { model: 'dall-e-3', prompt: 'a cat' })],
    ['images (gpt-image-1, quality auto)', 'images', () => e2e.postJson('/v1/images/generations', { model: 'gpt-image-1', prompt: 'a cat', quality: 'auto', size: '1536x1024' })],
    ['image edits', 'images', () => e2e.postForm('/v1/images/edits', formOf({ model: 'dall-e-2', prompt: 'a hat', size: '256x256' }, [['image', png, 'a.png', 'image/png']]))],
    ['speech', 'input', () => e2e.postJson('/v1/audio/speech', { model: 'tts-1', input: 'Hello there, relay.', voice: 'alloy' })],
    ['transcriptions', 'recording', () => e2e.postForm('/v1/audio/transcriptions', formOf({ model: 'whisper-1' }, [['file', WAV, 'a.wav', 'audio/wav']]))],
    ['translations', 'recording', () => e2e.postForm('/v1/audio/translations', formOf({ model: 'whisper-1' }, [['file', WAV, 'a.wav', 'audio/wav']]))],
  ];

  it.each(overBound)('%s: a bound over what is left → 429 before the upstream; exactly the bound left → admitted, charged at most it', async (_name, lower, send) => {
    await e2e.setQuota(1);
    const refused = await send();
    expect(refused.status).toBe(429);
    const error = errorOf(refused);
    expect(error).toMatchObject({ type: 'insufficient_quota', code: 'insufficient_quota' });
    expect(error.message).toContain(lower);
    const [row] = await usageRowsFor(e2e, [refused.requestId]);
    expect(row).toMatchObject({ status: 429, cost: 0, channelId: null, attempts: 0 });
    expect(modelCalls(e2e.sim)).toEqual([]);
    expect(await e2e.quotaUsed()).toBe(0);
    expect(e2e.openReservations()).toBe(0);

    // What the refusal reserves is an upper bound of the cost: with exactly that left, admitted.
    const reserved = Math.round(Number(/reserves (\d+\.\d{6}) USD/.exec(error.message)?.[1]) * 1_000_000);
    expect(reserved).toBeGreaterThan(1);
    await e2e.setQuota(reserved);
    const admitted = await send();
    expect(admitted.status).toBe(200);
    const [charged] = await usageRowsFor(e2e, [admitted.requestId]);
    expect(charged!.cost).toBeGreaterThan(0);
    expect(charged!.cost).toBeLessThanOrEqual(reserved);
    expect(await e2e.quotaUsed()).toBe(charged!.cost);
    expect(e2e.openReservations()).toBe(0);
  });
});
