import type pg from 'pg';
import type { PriceRecord, PriceStore } from '../types';
import { inTransaction } from './pg-pool';
import { jsonParam } from './pg-rows';

interface PriceRow {
  model: string;
  input: number;
  output: number;
  cache_read: number | null;
  cache_write: number | null;
  image: number | null;
  image_variants: Record<string, number> | null;
  search_unit: number | null;
  characters: number | null;
  audio_minute: number | null;
  video_second: number | null;
  video_second_variants: Record<string, number> | null;
  song: number | null;
  search_query: number | null;
  tool_calls: PriceRecord['toolCalls'] | null;
  service_tiers: Record<string, number> | null;
  audio_output: number | null;
}

const COLUMNS =
  'model, input, output, cache_read, cache_write, image, image_variants, search_unit, characters, audio_minute, video_second, video_second_variants, song, search_query, ' +
  'tool_calls, service_tiers, audio_output';

/** The units of other endpoints appear only where the price sets them. */
const toRecord = (row: PriceRow): PriceRecord => ({
  model: row.model,
  input: row.input,
  output: row.output,
  cacheRead: row.cache_read,
  cacheWrite: row.cache_write,
  ...(row.image !== null ? { image: row.image } : {}),
  ...(row.image_variants !== null ? { imageVariants: row.image_variants } : {}),
  ...(row.search_unit !== null ? { searchUnit: row.search_unit } : {}),
  ...(row.characters !== null ? { characters: row.characters } : {}),
  ...(row.audio_minute !== null ? { audioMinute: row.audio_minute } : {}),
  ...(row.video_second !== null ? { videoSecond: row.video_second } : {}),
  ...(row.video_second_variants !== null ? { videoSecondVariants: row.video_second_variants } : {}),
  ...(row.song !== null ? { song: row.song } : {}),
  ...(row.search_query !== null ? { searchQuery: row.search_query } : {}),
  ...(row.tool_calls !== null ? { toolCalls: row.tool_calls } : {}),
  ...(row.service_tiers !== null ? { serviceTiers: row.service_tiers } : {}),
  ...(row.audio_output !== null ? { audioOutput: row.audio_output } : {}),
});

/** The price table in PostgreSQL, behaving as SqlitePriceStore does. */
export class PgPriceStore implements PriceStore {
  constructor(private readonly pool: pg.Pool) {}

  async list(): Promise<PriceRecord[]> {
    const { rows } = await this.pool.query<PriceRow>(`SELECT ${COLUMNS} FROM prices ORDER BY position`);
    return rows.map(toRecord);
  }

  /**
   * The whole table at once, in one transaction and one INSERT (a column per array, a row per
   * price); positions keep the given order. A duplicate model fails it and leaves the old table.
   */
  async replace(prices: readonly PriceRecord[]): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await client.query('DELETE FROM prices');
      if (prices.length === 0) return;
      await client.query(
        `INSERT INTO prices (position, ${COLUMNS})
         SELECT * FROM unnest($1::integer[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[],
           $8::json[], $9::bigint[], $10::bigint[], $11::bigint[], $12::bigint[], $13::json[], $14::bigint[], $15::bigint[],
           $16::json[], $17::json[], $18::bigint[])`,
        [
          prices.map((_, index) => index + 1),
          prices.map((price) => price.model),
          prices.map((price) => price.input),
          prices.map((price) => price.output),
          prices.map((price) => price.cacheRead ?? null),
          prices.map((price) => price.cacheWrite ?? null),
          prices.map((price) => price.image ?? null),
          prices.map((price) => jsonParam(price.imageVariants)),
          prices.map((price) => price.searchUnit ?? null),
          prices.map((price) => price.characters ?? null),
          prices.map((price) => price.audioMinute ?? null),
          prices.map((price) => price.videoSecond ?? null),
          prices.map((price) => jsonParam(price.videoSecondVariants)),
          prices.map((price) => price.song ?? null),
          prices.map((price) => price.searchQuery ?? null),
          prices.map((price) => jsonParam(price.toolCalls)),
          prices.map((price) => jsonParam(price.serviceTiers)),
          prices.map((price) => price.audioOutput ?? null),
        ],
      );
    });
  }
}
