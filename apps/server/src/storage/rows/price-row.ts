import type { PriceRecord } from '../types';
import { flagOf, jsonColumn, type JsonColumn, type RowCodec } from './codec';

/** A `prices` row as both backends read it (its position only orders the table). */
export interface PriceRow {
  model: string;
  input: number | null;
  output: number | null;
  cache_read: number | null;
  cache_write: number | null;
  image: number | null;
  image_variants: JsonColumn<Record<string, number>> | null;
  search_unit: number | null;
  characters: number | null;
  audio_minute: number | null;
  video_second: number | null;
  video_second_variants: JsonColumn<Record<string, number>> | null;
  song: number | null;
  search_query: number | null;
  tool_calls: JsonColumn<NonNullable<PriceRecord['toolCalls']>> | null;
  service_tiers: JsonColumn<Record<string, number>> | null;
  audio_output: number | null;
  free: number | boolean;
}

export const PRICE_COLUMNS =
  'model, input, output, cache_read, cache_write, image, image_variants, search_unit, characters, audio_minute, video_second, video_second_variants, song, search_query, ' +
  'tool_calls, service_tiers, audio_output, free';

/** The units of other endpoints appear only where the price sets them. */
export function priceRecordOf(row: PriceRow, codec: RowCodec): PriceRecord {
  const imageVariants = codec.json(row.image_variants);
  const videoSecondVariants = codec.json(row.video_second_variants);
  const toolCalls = codec.json(row.tool_calls);
  const serviceTiers = codec.json(row.service_tiers);
  return {
    model: row.model,
    input: row.input,
    output: row.output,
    cacheRead: row.cache_read,
    cacheWrite: row.cache_write,
    ...(row.image !== null ? { image: row.image } : {}),
    ...(imageVariants !== null ? { imageVariants } : {}),
    ...(row.search_unit !== null ? { searchUnit: row.search_unit } : {}),
    ...(row.characters !== null ? { characters: row.characters } : {}),
    ...(row.audio_minute !== null ? { audioMinute: row.audio_minute } : {}),
    ...(row.video_second !== null ? { videoSecond: row.video_second } : {}),
    ...(videoSecondVariants !== null ? { videoSecondVariants } : {}),
    ...(row.song !== null ? { song: row.song } : {}),
    ...(row.search_query !== null ? { searchQuery: row.search_query } : {}),
    ...(toolCalls !== null ? { toolCalls } : {}),
    ...(serviceTiers !== null ? { serviceTiers } : {}),
    ...(row.audio_output !== null ? { audioOutput: row.audio_output } : {}),
    ...(flagOf(row.free) ? { free: true } : {}),
  };
}

/** A price's row as written: its `position`, then the values of PRICE_COLUMNS in order (JSON as text). */
export const priceValues = (price: PriceRecord, position: number, codec: RowCodec): Array<string | number | boolean | null> => [
  position,
  price.model,
  price.input ?? null,
  price.output ?? null,
  price.cacheRead ?? null,
  price.cacheWrite ?? null,
  price.image ?? null,
  jsonColumn(price.imageVariants),
  price.searchUnit ?? null,
  price.characters ?? null,
  price.audioMinute ?? null,
  price.videoSecond ?? null,
  jsonColumn(price.videoSecondVariants),
  price.song ?? null,
  price.searchQuery ?? null,
  jsonColumn(price.toolCalls),
  jsonColumn(price.serviceTiers),
  price.audioOutput ?? null,
  codec.flag(price.free === true),
];
