import type Database from 'better-sqlite3';
import type { PriceRecord, PriceStore } from '../types';

interface PriceRow {
  model: string;
  input: number;
  output: number;
  cache_read: number | null;
  cache_write: number | null;
  image: number | null;
  image_variants: string | null;
  search_unit: number | null;
  characters: number | null;
  audio_minute: number | null;
  video_second: number | null;
  video_second_variants: string | null;
  song: number | null;
  search_query: number | null;
  tool_calls: string | null;
  service_tiers: string | null;
  audio_output: number | null;
}

/** The units of other endpoints appear only where the price sets them. */
const toRecord = (row: PriceRow): PriceRecord => ({
  model: row.model,
  input: row.input,
  output: row.output,
  cacheRead: row.cache_read,
  cacheWrite: row.cache_write,
  ...(row.image !== null ? { image: row.image } : {}),
  ...(row.image_variants !== null ? { imageVariants: JSON.parse(row.image_variants) as Record<string, number> } : {}),
  ...(row.search_unit !== null ? { searchUnit: row.search_unit } : {}),
  ...(row.characters !== null ? { characters: row.characters } : {}),
  ...(row.audio_minute !== null ? { audioMinute: row.audio_minute } : {}),
  ...(row.video_second !== null ? { videoSecond: row.video_second } : {}),
  ...(row.video_second_variants !== null ? { videoSecondVariants: JSON.parse(row.video_second_variants) as Record<string, number> } : {}),
  ...(row.song !== null ? { song: row.song } : {}),
  ...(row.search_query !== null ? { searchQuery: row.search_query } : {}),
  ...(row.tool_calls !== null ? { toolCalls: JSON.parse(row.tool_calls) as PriceRecord['toolCalls'] } : {}),
  ...(row.service_tiers !== null ? { serviceTiers: JSON.parse(row.service_tiers) as Record<string, number> } : {}),
  ...(row.audio_output !== null ? { audioOutput: row.audio_output } : {}),
});

export class SqlitePriceStore implements PriceStore {
  constructor(private readonly db: Database.Database) {}

  async list(): Promise<PriceRecord[]> {
    return (this.db.prepare('SELECT * FROM prices ORDER BY position').all() as PriceRow[]).map(toRecord);
  }

  async replace(prices: readonly PriceRecord[]): Promise<void> {
    const insert = this.db.prepare(
      `INSERT INTO prices (position, model, input, output, cache_read, cache_write, image, image_variants, search_unit, characters, audio_minute,
         video_second, video_second_variants, song, search_query, tool_calls, service_tiers, audio_output)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM prices').run();
      prices.forEach((price, index) =>
        insert.run(
          index + 1,
          price.model,
          price.input,
          price.output,
          price.cacheRead,
          price.cacheWrite,
          price.image ?? null,
          price.imageVariants ? JSON.stringify(price.imageVariants) : null,
          price.searchUnit ?? null,
          price.characters ?? null,
          price.audioMinute ?? null,
          price.videoSecond ?? null,
          price.videoSecondVariants ? JSON.stringify(price.videoSecondVariants) : null,
          price.song ?? null,
          price.searchQuery ?? null,
          price.toolCalls ? JSON.stringify(price.toolCalls) : null,
          price.serviceTiers ? JSON.stringify(price.serviceTiers) : null,
          price.audioOutput ?? null,
        ),
      );
    })();
  }
}
