import { z } from 'zod';
import { HostedToolKindSchema, ServiceTierNameSchema } from './passthrough.schema';

const perMillionTokens = z.number().int().nonnegative().max(1_000_000_000_000);
/** Micro-USD per one of an endpoint's units (an image, a search unit, a minute of audio). */
const perUnit = z.number().int().nonnegative().max(1_000_000_000_000);
/** A service tier's multiple of the standard token price: `2`, `1.75`, `0.5`. */
const tierMultiplier = z.number().positive().max(100).multipleOf(0.001);
/** `1024x1024`, `hd`, `hd/1024x1792`, `high/1536x1024`: an image's quality, size, or both. */
const imageVariant = z.string().regex(/^(?:[a-z]+\/)?(?:\d{2,5}x\d{2,5}|[a-z]+)$/, 'a size (1024x1024), a quality (hd), or quality/size (hd/1024x1792)');

/**
 * A price for a model name or glob, in micro-USD per million tokens (SPEC §8). Prompt tokens
 * read from or written to the provider's prompt cache have prices of their own (Anthropic bills
 * a 5-minute cache write at 1.25 × input and a read at 0.1 ×; OpenAI and Gemini a cached read
 * at a fraction of input); `null` or absent, they cost what `input` costs.
 *
 * Endpoints other than chat add their own units (SPEC §7a), charged on top of any tokens the
 * upstream reports: images per image (`image`, or `image_variants` by quality and size), rerank
 * per search unit (a query over up to 100 documents), speech per million input characters,
 * transcription and translation per minute of audio, videos per second (`video_second`, or
 * `video_second_variants` by size), songs per song, web searches per query. Absent, a unit costs
 * nothing.
 *
 * What a passthrough call carries (see ChannelPassthroughSchema) has prices of its own: each
 * hosted tool call the upstream ran, by kind (`tool_calls`, micro-USD per call); a premium service
 * tier as a multiplier of the token cost (`service_tiers`, e.g. `priority: 2`, `flex: 0.5`); audio
 * output tokens per million (`audio_output`, in place of `output` for those tokens). A per-call
 * kind or a tier without its price here is refused before any upstream call.
 *
 * An entry carries only the units that apply: a video model's needs no `input`/`output`. A model
 * with no entry here and no list price in the model catalogue — or a token-priced request on an
 * entry without token prices — is unpriced, and refused before any upstream call unless the entry
 * says `free: true` (or the install sets RELAY_UNPRICED_MODELS=free).
 */
export const PriceSchema = z
  .object({
    model: z.string().trim().min(1).max(200),
    /** Absent or `null` with `output`: the entry has no token prices (a video or image model) — a token-priced request on it is unpriced. */
    input: perMillionTokens.nullable().optional(),
    output: perMillionTokens.nullable().optional(),
    cache_read: perMillionTokens.nullable().optional(),
    cache_write: perMillionTokens.nullable().optional(),
    /** Micro-USD per generated or edited image, when no `image_variants` entry matches. */
    image: perUnit.nullable().optional(),
    /** Micro-USD per image by `quality/size`, `size` or `quality`, the most specific match first. */
    image_variants: z.record(imageVariant, perUnit).nullable().optional(),
    /** Micro-USD per rerank search unit (one query over up to 100 documents). */
    search_unit: perUnit.nullable().optional(),
    /** Micro-USD per million characters of speech input (`/v1/audio/speech`). */
    characters: perMillionTokens.nullable().optional(),
    /** Micro-USD per minute of audio transcribed or translated, charged by the second. */
    audio_minute: perUnit.nullable().optional(),
    /** Micro-USD per second of generated video, when no `video_second_variants` entry matches. */
    video_second: perUnit.nullable().optional(),
    /** Micro-USD per second of video by size (`1792x1024`). */
    video_second_variants: z.record(z.string().regex(/^\d{2,5}x\d{2,5}$/, 'a size such as 1280x720'), perUnit).nullable().optional(),
    /** Micro-USD per song task (a Suno-style `music` or `lyrics` submission) that completes. */
    song: perUnit.nullable().optional(),
    /** Micro-USD per web search query. */
    search_query: perUnit.nullable().optional(),
    /** Micro-USD per hosted tool call the upstream ran, by kind (web_search, code_execution …). */
    tool_calls: z.record(HostedToolKindSchema, perUnit).nullable().optional(),
    /** The token cost's multiplier per premium service tier (`priority: 2`), at most 3 decimals. */
    service_tiers: z.record(ServiceTierNameSchema, tierMultiplier).nullable().optional(),
    /** Micro-USD per million audio output tokens (those are not charged at `output`). */
    audio_output: perMillionTokens.nullable().optional(),
    /** Served for nothing on purpose: the model is not refused as unpriced, and what the entry prices is still charged. */
    free: z.boolean().optional(),
  })
  .strict()
  .refine((price) => (price.input == null) === (price.output == null), {
    message: 'input and output are set together (a model priced by tokens) or both left out (one priced only by its units)',
    path: ['input'],
  });
export type Price = z.infer<typeof PriceSchema>;

/** The whole table; the first entry whose name or glob matches a model prices it. */
export const PriceTableSchema = z
  .object({ data: z.array(PriceSchema).max(10_000) })
  .strict()
  .refine((table) => new Set(table.data.map((price) => price.model)).size === table.data.length, {
    message: 'each model may appear once',
    path: ['data'],
  });
export type PriceTable = z.infer<typeof PriceTableSchema>;
