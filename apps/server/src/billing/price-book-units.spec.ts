import type { Endpoint } from '@chat-relay/contract';
import type { PriceRecord } from '../storage/types';
import { costBound, costOf, MAX_COST } from './price-book';
import { imagePrice, unitCost, videoSecondPrice, videoSecondPriceBound } from './unit-cost';

/** The units of the endpoints beside chat (SPEC §7a): images, search units, characters, audio seconds, video seconds, songs, queries. */

const price = (units: Partial<PriceRecord> = {}): PriceRecord => ({ model: 'm', input: 0, output: 0, cacheRead: null, cacheWrite: null, ...units });

/** dall-e-3's list prices as migration 8 seeds them, plus a quality-only entry. */
const dallE3 = price({
  image: 40_000,
  imageVariants: { '1024x1024': 40_000, '1024x1792': 80_000, 'hd/1024x1024': 80_000, 'hd/1024x1792': 120_000, hd: 90_000 },
});

describe('imagePrice', () => {
  it('takes quality/size first, then the size, then the quality, then the plain image price', () => {
    expect(imagePrice(dallE3, 'hd/1024x1792')).toBe(120_000);
    // No `standard/1024x1792`: its size.
    expect(imagePrice(dallE3, 'standard/1024x1792')).toBe(80_000);
    // No `hd/512x512`, no `512x512`: its quality.
    expect(imagePrice(dallE3, 'hd/512x512')).toBe(90_000);
    // Nothing of it: the plain price.
    expect(imagePrice(dallE3, 'low/256x256')).toBe(40_000);
  });

  it('prefers the size to the quality when both are listed but not together', () => {
    const table = price({ image: 1, imageVariants: { '1536x1024': 250_000, high: 170_000 } });
    expect(imagePrice(table, 'high/1536x1024')).toBe(250_000);
    expect(imagePrice(table, 'high/1024x1024')).toBe(170_000);
  });

  it('looks a variant without a slash up as it is', () => {
    expect(imagePrice(dallE3, '1024x1792')).toBe(80_000);
    expect(imagePrice(dallE3, 'hd')).toBe(90_000);
    expect(imagePrice(dallE3, '256x256')).toBe(40_000);
  });

  it('honours a variant priced at zero rather than falling back', () => {
    expect(imagePrice(price({ image: 40_000, imageVariants: { '256x256': 0 } }), '256x256')).toBe(0);
  });

  it('without a variant, or without variants in the table, is the plain price; without that too, 0', () => {
    expect(imagePrice(dallE3, null)).toBe(40_000);
    expect(imagePrice(dallE3, undefined)).toBe(40_000);
    expect(imagePrice(dallE3, '')).toBe(40_000);
    expect(imagePrice(price({ image: 20_000 }), 'hd/1024x1024')).toBe(20_000);
    expect(imagePrice(price({ image: 20_000, imageVariants: null }), 'hd/1024x1024')).toBe(20_000);
    expect(imagePrice(price(), 'hd/1024x1024')).toBe(0);
    expect(imagePrice(price({ image: null, imageVariants: { hd: 5 } }), '1024x1024')).toBe(0);
  });

  it('never takes a name inherited from Object.prototype for a price', () => {
    expect(imagePrice(dallE3, 'constructor')).toBe(40_000);
    expect(imagePrice(dallE3, 'toString/__proto__')).toBe(40_000);
    expect(imagePrice(price(), 'hasOwnProperty')).toBe(0);
  });
});

/** sora-2-pro's list prices: 0.30 USD a second, 0.50 at the larger sizes. */
const soraPro = price({ videoSecond: 300_000, videoSecondVariants: { '1792x1024': 500_000, '1024x1792': 500_000 } });

describe('videoSecondPrice', () => {
  it('takes the size when the table has it, else the plain price, else 0', () => {
    expect(videoSecondPrice(soraPro, '1792x1024')).toBe(500_000);
    expect(videoSecondPrice(soraPro, '1280x720')).toBe(300_000);
    expect(videoSecondPrice(soraPro, null)).toBe(300_000);
    expect(videoSecondPrice(soraPro, undefined)).toBe(300_000);
    expect(videoSecondPrice(price({ videoSecondVariants: { '1280x720': 7 } }), '720x1280')).toBe(0);
    expect(videoSecondPrice(price(), '1280x720')).toBe(0);
  });

  it('honours a size priced at zero, and never takes a name of Object.prototype for a size', () => {
    expect(videoSecondPrice(price({ videoSecond: 9, videoSecondVariants: { '640x360': 0 } }), '640x360')).toBe(0);
    expect(videoSecondPrice(soraPro, 'constructor')).toBe(300_000);
    expect(videoSecondPrice(soraPro, '__proto__')).toBe(300_000);
  });
});

describe('videoSecondPriceBound', () => {
  it('is the named size when the table has it, otherwise the dearest second of the table', () => {
    expect(videoSecondPriceBound(soraPro, '1024x1792')).toBe(500_000);
    // Unnamed, or a size the table lacks: the answer may report any size.
    expect(videoSecondPriceBound(soraPro, null)).toBe(500_000);
    expect(videoSecondPriceBound(soraPro, '1280x720')).toBe(500_000);
    expect(videoSecondPriceBound(price({ videoSecond: 800, videoSecondVariants: { '1280x720': 100 } }), '1280x720')).toBe(100);
    expect(videoSecondPriceBound(price({ videoSecond: 800, videoSecondVariants: { '1280x720': 100 } }), undefined)).toBe(800);
    expect(videoSecondPriceBound(price(), '1280x720')).toBe(0);
    expect(videoSecondPriceBound(soraPro, 'toString')).toBe(500_000);
  });
});

const billed = (endpoint: Endpoint | undefined, units: number | undefined, unitVariant: string | null = null) => ({ endpoint, units, unitVariant });

describe('unitCost', () => {
  it('images: the number of images (rounded up) × the price of their variant', () => {
    expect(unitCost(dallE3, billed('images', 2, 'hd/1024x1792'))).toBe(240_000);
    expect(unitCost(dallE3, billed('images', 3, 'standard/1024x1024'))).toBe(120_000);
    expect(unitCost(dallE3, billed('images', 1))).toBe(40_000);
    expect(unitCost(dallE3, billed('images', 1.2, 'hd/1024x1792'))).toBe(240_000);
    expect(unitCost(price(), billed('images', 4, 'hd'))).toBe(0);
  });

  it('rerank: search units (rounded up) × the search unit price', () => {
    const rerank = price({ searchUnit: 2_000 });
    expect(unitCost(rerank, billed('rerank', 3))).toBe(6_000);
    expect(unitCost(rerank, billed('rerank', 0.5))).toBe(2_000);
    expect(unitCost(price({ image: 9 }), billed('rerank', 3))).toBe(0);
  });

  it('audio_speech: characters (rounded up) at the price per million, the cost rounded up', () => {
    // tts-1: 15 USD per million characters.
    const tts = price({ characters: 15_000_000 });
    expect(unitCost(tts, billed('audio_speech', 1_000))).toBe(15_000);
    expect(unitCost(tts, billed('audio_speech', 1))).toBe(15);
    expect(unitCost(tts, billed('audio_speech', 1.5))).toBe(30);
    // One character at 1 micro-USD per million is a millionth of a micro-USD: still 1.
    expect(unitCost(price({ characters: 1 }), billed('audio_speech', 1))).toBe(1);
    expect(unitCost(price({ characters: 3 }), billed('audio_speech', 1_000_000))).toBe(3);
    expect(unitCost(price({ characters: 3 }), billed('audio_speech', 1_000_001))).toBe(4);
    expect(unitCost(price({ searchUnit: 5 }), billed('audio_speech', 1_000))).toBe(0);
  });

  it('audio_transcriptions: seconds at the per-minute price, charged by the second (not by the started minute)', () => {
    // whisper-1: 0.006 USD a minute.
    const whisper = price({ audioMinute: 6_000 });
    expect(unitCost(whisper, billed('audio_transcriptions', 60))).toBe(6_000);
    expect(unitCost(whisper, billed('audio_transcriptions', 61))).toBe(6_100);
    expect(unitCost(whisper, billed('audio_transcriptions', 1))).toBe(100);
    expect(unitCost(whisper, billed('audio_transcriptions', 1.5))).toBe(150);
    expect(unitCost(whisper, billed('audio_transcriptions', 0.001))).toBe(1);
    expect(unitCost(price({ characters: 5 }), billed('audio_transcriptions', 60))).toBe(0);
  });

  it('audio_transcriptions: a duration with a fractional second is not overcharged by float error', () => {
    const whisper = price({ audioMinute: 6_000 });
    // 1.1 s × 6,000 / 60 = 110 exactly; in floats 1.1 × 6,000 is 6,600.000000000001.
    expect(unitCost(whisper, billed('audio_transcriptions', 1.1))).toBe(110);
    expect(unitCost(whisper, billed('audio_transcriptions', 8.47))).toBe(847);
    expect(unitCost(whisper, billed('audio_transcriptions', 12.345))).toBe(1_235);
  });

  it('videos: seconds × the price of a second at their size, charged by the millisecond', () => {
    expect(unitCost(soraPro, billed('videos', 8, '1792x1024'))).toBe(4_000_000);
    expect(unitCost(soraPro, billed('videos', 12, '1280x720'))).toBe(3_600_000);
    expect(unitCost(soraPro, billed('videos', 4))).toBe(1_200_000);
    // 1.1 s × 100,000 is 110,000.00000000001 in floats: not a micro-USD more.
    expect(unitCost(price({ videoSecond: 100_000 }), billed('videos', 1.1))).toBe(110_000);
    expect(unitCost(price({ videoSecond: 100_000 }), billed('videos', 8.47))).toBe(847_000);
    expect(unitCost(price({ videoSecond: 1 }), billed('videos', 0.0001))).toBe(0);
    expect(unitCost(price({ videoSecond: 1 }), billed('videos', 0.001))).toBe(1);
    expect(unitCost(price({ song: 5, searchQuery: 5 }), billed('videos', 8))).toBe(0);
  });

  it('music: songs (rounded up) × the song price', () => {
    const suno = price({ song: 40_000 });
    expect(unitCost(suno, billed('music', 2))).toBe(80_000);
    expect(unitCost(suno, billed('music', 1))).toBe(40_000);
    expect(unitCost(suno, billed('music', 0.5))).toBe(40_000);
    expect(unitCost(price({ videoSecond: 5, searchQuery: 5 }), billed('music', 2))).toBe(0);
  });

  it('search: queries (rounded up) × the query price', () => {
    const tavily = price({ searchQuery: 8_000 });
    expect(unitCost(tavily, billed('search', 3))).toBe(24_000);
    expect(unitCost(tavily, billed('search', 1.2))).toBe(16_000);
    // Not the rerank price: a search unit is another thing.
    expect(unitCost(price({ searchUnit: 2_000, song: 3 }), billed('search', 3))).toBe(0);
  });

  it.each<Endpoint | undefined>(['chat', 'completions', 'embeddings', 'moderations', undefined])('%s has no units of its own: 0', (endpoint) => {
    const everything = price({ image: 1, searchUnit: 1, characters: 1, audioMinute: 1, videoSecond: 1, song: 1, searchQuery: 1 });
    expect(unitCost(everything, billed(endpoint, 1_000))).toBe(0);
  });

  it.each([Number.NaN, -1, -0.5, 0, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, undefined])('units of %s cost nothing', (units) => {
    const everything = price({ image: 40_000, searchUnit: 2_000, characters: 15_000_000, audioMinute: 6_000, videoSecond: 100_000, song: 40_000, searchQuery: 8_000 });
    for (const endpoint of ['images', 'rerank', 'audio_speech', 'audio_transcriptions', 'videos', 'music', 'search'] as const) {
      expect(unitCost(everything, billed(endpoint, units))).toBe(0);
    }
  });

  it('is clamped to MAX_COST, and stays a safe integer', () => {
    const dear = price({
      image: 1_000_000_000_000,
      searchUnit: 1_000_000_000_000,
      characters: 1_000_000_000_000,
      audioMinute: 1_000_000_000_000,
      videoSecond: 1_000_000_000_000,
      song: 1_000_000_000_000,
      searchQuery: 1_000_000_000_000,
    });
    for (const endpoint of ['images', 'rerank', 'audio_speech', 'audio_transcriptions', 'videos', 'music', 'search'] as const) {
      expect(unitCost(dear, billed(endpoint, 1e15))).toBe(MAX_COST);
    }
    expect(unitCost(dear, billed('images', 1e300))).toBe(MAX_COST);
  });
});

describe('costOf with units', () => {
  // gpt-image-1: 5 USD per million input tokens, 40 USD per million output tokens, and per image.
  const gptImage = price({ input: 5_000_000, output: 40_000_000, image: 42_000, imageVariants: { 'high/1024x1024': 167_000 } });

  it('adds the units to the tokens', () => {
    // 1,000 prompt tokens × 5 + 2 images × 0.167 USD.
    expect(costOf(gptImage, { promptTokens: 1_000, completionTokens: 0, endpoint: 'images', units: 2, unitVariant: 'high/1024x1024' })).toBe(5_000 + 334_000);
    // Output tokens too, and a variant not listed: the plain price.
    expect(costOf(gptImage, { promptTokens: 10, completionTokens: 100, endpoint: 'images', units: 1, unitVariant: 'low/1024x1024' })).toBe(50 + 4_000 + 42_000);
  });

  it('without units, or on an endpoint without units, is the token cost alone', () => {
    expect(costOf(gptImage, { promptTokens: 1_000, completionTokens: 0, endpoint: 'images', units: 0 })).toBe(5_000);
    expect(costOf(gptImage, { promptTokens: 1_000, completionTokens: 0, endpoint: 'images' })).toBe(5_000);
    expect(costOf(gptImage, { promptTokens: 1_000, completionTokens: 0, endpoint: 'chat', units: 3 })).toBe(5_000);
    expect(costOf(gptImage, { promptTokens: 1_000, completionTokens: 0, endpoint: 'images', units: Number.NaN })).toBe(5_000);
  });

  it('charges units even when no tokens were reported, and nothing without a price', () => {
    expect(costOf(price({ audioMinute: 6_000 }), { promptTokens: 0, completionTokens: 0, endpoint: 'audio_transcriptions', units: 30 })).toBe(3_000);
    expect(costOf(undefined, { promptTokens: 100, completionTokens: 100, endpoint: 'images', units: 2 })).toBe(0);
  });

  it('never passes MAX_COST, tokens and units together', () => {
    const dear = price({ input: 1_000_000_000_000, output: 0, image: 1_000_000_000_000 });
    expect(costOf(dear, { promptTokens: MAX_COST, completionTokens: 0, endpoint: 'images', units: 1_000 })).toBe(MAX_COST);
    // Each part below the cap, their sum above it.
    const half = Math.ceil(MAX_COST / 2);
    expect(costOf(price({ input: 1_000_000, output: 0, searchUnit: half }), { promptTokens: half, completionTokens: 0, endpoint: 'rerank', units: 1 })).toBe(MAX_COST);
  });
});

describe('costBound with units', () => {
  const tts = price({ input: 600_000, output: 12_000_000, characters: 15_000_000 });

  it('adds the units bound to the token bound', () => {
    expect(costBound(tts, 1_000, 0, { endpoint: 'audio_speech', units: 4_096 })).toBe(600 + Math.ceil((4_096 * 15_000_000) / 1_000_000));
    expect(costBound(dallE3, 0, 0, { endpoint: 'images', units: 4, unitVariant: 'hd/1024x1792' })).toBe(480_000);
  });

  it('without units is the token bound alone', () => {
    expect(costBound(tts, 1_000, 100)).toBe(600 + 1_200);
    expect(costBound(tts, 1_000, 100, { endpoint: 'chat', units: 10 })).toBe(600 + 1_200);
    expect(costBound(undefined, 1_000, 100, { endpoint: 'audio_speech', units: 10 })).toBe(0);
  });

  it('videos: the seconds asked at the price of the size asked when listed, else at the dearest size', () => {
    expect(costBound(soraPro, 0, 0, { endpoint: 'videos', units: 8, unitVariant: '1024x1792' })).toBe(4_000_000);
    expect(costBound(soraPro, 0, 0, { endpoint: 'videos', units: 8, unitVariant: '1280x720' })).toBe(4_000_000);
    expect(costBound(soraPro, 0, 0, { endpoint: 'videos', units: 8 })).toBe(4_000_000);
    const plain = price({ videoSecond: 100_000, videoSecondVariants: { '1280x720': 100_000 } });
    expect(costBound(plain, 0, 0, { endpoint: 'videos', units: 12, unitVariant: '1280x720' })).toBe(1_200_000);
  });

  it('music and search: the units asked × their price, as costOf charges them', () => {
    const both = price({ input: 1_000_000, output: 0, song: 40_000, searchQuery: 8_000 });
    expect(costBound(both, 0, 0, { endpoint: 'music', units: 2 })).toBe(80_000);
    expect(costBound(both, 100, 0, { endpoint: 'search', units: 1 })).toBe(100 + 8_000);
  });

  it.each([
    ['videos', 8, '1792x1024'],
    ['videos', 8, '1280x720'],
    ['videos', 4.5, null],
    ['music', 2, null],
    ['search', 3, null],
  ] as const)('%s: the bound for %s units (%s) is never below what any reported size costs', (endpoint, units, unitVariant) => {
    const table = price({ videoSecond: 300_000, videoSecondVariants: { '1792x1024': 500_000, '640x360': 100_000 }, song: 40_000, searchQuery: 8_000 });
    const bound = costBound(table, 0, 0, { endpoint, units, unitVariant });
    for (const reported of [unitVariant, '1792x1024', '640x360', '1280x720', null]) {
      // A size named and listed is what the upstream renders; otherwise any size may be reported.
      if (unitVariant === '1792x1024' && reported !== unitVariant) continue;
      expect(bound).toBeGreaterThanOrEqual(costOf(table, { promptTokens: 0, completionTokens: 0, endpoint, units, unitVariant: reported }));
    }
  });

  it('is never less than costOf for the same units, and never more than MAX_COST', () => {
    const whisper = price({ input: 2_500_000, output: 10_000_000, audioMinute: 6_000 });
    const units = { endpoint: 'audio_transcriptions' as const, units: 125.5 };
    expect(costBound(whisper, 500, 500, units)).toBeGreaterThanOrEqual(costOf(whisper, { promptTokens: 500, completionTokens: 500, ...units }));
    expect(costBound(price({ input: 1_000_000_000_000, output: 0, image: 1_000_000_000_000 }), MAX_COST, 0, { endpoint: 'images', units: 10 })).toBe(MAX_COST);
  });
});
