import type { StoreBackend } from '../testing/store-backends';
import type { PriceRecord } from '../../../src/storage/types';
import { failureOf, storageForEachTest } from './open-with-sql';

/**
 * What a new database is seeded with, on every backend: SQLite's migrations 3, 6 and 8 and
 * PostgreSQL's schema v1 must agree on it row for row.
 */
const SEEDED: PriceRecord[] = [
  { model: 'gpt-4o-mini*', input: 150000, output: 600000, cacheRead: 75000, cacheWrite: null },
  { model: 'gpt-4o*', input: 2500000, output: 10000000, cacheRead: 1250000, cacheWrite: null },
  { model: 'gpt-4.1-mini*', input: 400000, output: 1600000, cacheRead: 100000, cacheWrite: null },
  { model: 'gpt-4.1*', input: 2000000, output: 8000000, cacheRead: 500000, cacheWrite: null },
  { model: 'o3-mini*', input: 1100000, output: 4400000, cacheRead: 550000, cacheWrite: null },
  { model: 'o3*', input: 2000000, output: 8000000, cacheRead: 500000, cacheWrite: null },
  { model: 'claude-haiku-4-5*', input: 1000000, output: 5000000, cacheRead: 100000, cacheWrite: 1250000 },
  { model: 'claude-sonnet-4*', input: 3000000, output: 15000000, cacheRead: 300000, cacheWrite: 3750000 },
  { model: 'claude-opus-4*', input: 15000000, output: 75000000, cacheRead: 1500000, cacheWrite: 18750000 },
  { model: 'gemini-2.5-flash*', input: 300000, output: 2500000, cacheRead: 30000, cacheWrite: null },
  { model: 'gemini-2.5-pro*', input: 1250000, output: 10000000, cacheRead: 125000, cacheWrite: null },
  {
    model: 'dall-e-3',
    input: 0,
    output: 0,
    cacheRead: null,
    cacheWrite: null,
    image: 40000,
    imageVariants: {
      '1024x1024': 40000,
      '1024x1792': 80000,
      '1792x1024': 80000,
      'hd/1024x1024': 80000,
      'hd/1024x1792': 120000,
      'hd/1792x1024': 120000,
    },
  },
  {
    model: 'dall-e-2',
    input: 0,
    output: 0,
    cacheRead: null,
    cacheWrite: null,
    image: 20000,
    imageVariants: { '256x256': 16000, '512x512': 18000, '1024x1024': 20000 },
  },
  { model: 'text-embedding-3-small', input: 20000, output: 0, cacheRead: null, cacheWrite: null },
  { model: 'text-embedding-3-large', input: 130000, output: 0, cacheRead: null, cacheWrite: null },
  { model: 'tts-1', input: 0, output: 0, cacheRead: null, cacheWrite: null, characters: 15000000 },
  { model: 'whisper-1', input: 0, output: 0, cacheRead: null, cacheWrite: null, audioMinute: 6000 },
  // Issue 28: OpenAI's moderation models cost nothing, marked free so they are not refused as unpriced.
  { model: 'omni-moderation-*', input: null, output: null, cacheRead: null, cacheWrite: null, free: true },
  { model: 'text-moderation-*', input: null, output: null, cacheRead: null, cacheWrite: null, free: true },
];

/** Variants in no sorted order: the admin's order comes back. */
const TABLE: PriceRecord[] = [
  { model: 'zz-last-alphabetically', input: 1, output: 2, cacheRead: 3, cacheWrite: 4 },
  {
    model: 'image-model',
    input: 0,
    output: 0,
    cacheRead: null,
    cacheWrite: null,
    image: 50,
    imageVariants: { 'hd/1792x1024': 300, '256x256': 10, hd: 200 },
  },
  { model: 'rerank-*', input: 5, output: 0, cacheRead: null, cacheWrite: null, searchUnit: 2000 },
  { model: 'speech', input: 0, output: 0, cacheRead: null, cacheWrite: null, characters: 30_000_000 },
  { model: 'transcribe', input: 0, output: 0, cacheRead: null, cacheWrite: null, audioMinute: 6000 },
  {
    model: 'sora-*',
    input: 0,
    output: 0,
    cacheRead: null,
    cacheWrite: null,
    videoSecond: 100_000,
    videoSecondVariants: { '1792x1024': 500_000, '1024x1792': 500_000, '1280x720': 300_000 },
  },
  { model: 'suno-v4', input: 0, output: 0, cacheRead: null, cacheWrite: null, song: 40_000 },
  { model: 'web-search', input: 0, output: 0, cacheRead: null, cacheWrite: null, searchQuery: 8_000 },
  {
    model: 'gpt-5*',
    input: 1_250_000,
    output: 10_000_000,
    cacheRead: null,
    cacheWrite: null,
    // Not in any sorted order: the admin's order comes back.
    toolCalls: { web_search: 10_000, code_execution: 30_000, file_search: 2_500 },
    serviceTiers: { priority: 2, flex: 0.5, scale: 1.125 },
    audioOutput: 80_000_000,
  },
  { model: 'aa-first-alphabetically', input: Number.MAX_SAFE_INTEGER, output: Number.MAX_SAFE_INTEGER, cacheRead: 0, cacheWrite: 0 },
  // Issue 28: only the units that apply (no token prices), and free on purpose.
  { model: 'video-only', input: null, output: null, cacheRead: null, cacheWrite: null, videoSecond: 120_000 },
  { model: 'local-llama*', input: null, output: null, cacheRead: null, cacheWrite: null, free: true },
  { model: 'free-but-priced', input: 5, output: 6, cacheRead: null, cacheWrite: null, free: true },
];

/** The behaviour every PriceStore shows, on each backend (describeEachBackend). */
export function describePriceStore(backend: StoreBackend): void {
  const storage = storageForEachTest(backend);

  it('starts with the seeded list prices, in order, each unit only where it is priced', async () => {
    // Strict: a unit the row does not price is absent, not undefined or null.
    expect(await storage().prices.list()).toStrictEqual(SEEDED);
  });

  it('replaces the whole table, keeping the given order and every unit column', async () => {
    await storage().prices.replace(TABLE);
    const listed = await storage().prices.list();
    expect(listed).toStrictEqual(TABLE);
    expect(Object.keys(listed[1]?.imageVariants ?? {})).toEqual(['hd/1792x1024', '256x256', 'hd']);
    expect(Object.keys(listed.find((price) => price.model === 'sora-*')?.videoSecondVariants ?? {})).toEqual(['1792x1024', '1024x1792', '1280x720']);
    const passthrough = listed.find((price) => price.model === 'gpt-5*');
    expect(Object.keys(passthrough?.toolCalls ?? {})).toEqual(['web_search', 'code_execution', 'file_search']);
    expect(Object.keys(passthrough?.serviceTiers ?? {})).toEqual(['priority', 'flex', 'scale']);
    await storage().prices.replace([...TABLE].reverse());
    expect(await storage().prices.list()).toStrictEqual([...TABLE].reverse());
  });

  it('reads units set to null as not priced, and an empty variant table as a table', async () => {
    await storage().prices.replace([
      {
        model: 'm',
        input: 1,
        output: 1,
        cacheRead: null,
        cacheWrite: null,
        image: null,
        imageVariants: null,
        searchUnit: null,
        characters: null,
        audioMinute: null,
        videoSecond: null,
        videoSecondVariants: null,
        song: null,
        searchQuery: null,
        toolCalls: null,
        serviceTiers: null,
        audioOutput: null,
      },
      { model: 'n', input: 1, output: 1, cacheRead: null, cacheWrite: null, image: 0, imageVariants: {} },
      { model: 'o', input: 1, output: 1, cacheRead: null, cacheWrite: null, videoSecond: 0, videoSecondVariants: {}, song: 0, searchQuery: 0 },
      { model: 'p', input: 1, output: 1, cacheRead: null, cacheWrite: null, toolCalls: {}, serviceTiers: {}, audioOutput: 0 },
    ]);
    expect(await storage().prices.list()).toStrictEqual([
      { model: 'm', input: 1, output: 1, cacheRead: null, cacheWrite: null },
      { model: 'n', input: 1, output: 1, cacheRead: null, cacheWrite: null, image: 0, imageVariants: {} },
      { model: 'o', input: 1, output: 1, cacheRead: null, cacheWrite: null, videoSecond: 0, videoSecondVariants: {}, song: 0, searchQuery: 0 },
      { model: 'p', input: 1, output: 1, cacheRead: null, cacheWrite: null, toolCalls: {}, serviceTiers: {}, audioOutput: 0 },
    ]);
  });

  it('can empty the table', async () => {
    await storage().prices.replace([]);
    expect(await storage().prices.list()).toEqual([]);
  });

  it('refuses a table naming a model twice, and keeps the one it had', async () => {
    await storage().prices.replace(TABLE);
    const twice = [...TABLE, { model: 'speech', input: 9, output: 9, cacheRead: null, cacheWrite: null }];
    expect(await failureOf(storage().prices.replace(twice))).toMatch(/unique/i);
    expect(await storage().prices.list()).toStrictEqual(TABLE);
  });
}
