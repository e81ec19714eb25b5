import { z } from 'zod';
import type { ReportedUsage } from '../../hub/upstream-adapter';
import { isJsonObject } from '../../json/json-checks';

/** The two counts every Responses server sends; the details are read apart, leniently. */
const ResponsesUsageCountsSchema = z
  .object({ input_tokens: z.number().int().nonnegative(), output_tokens: z.number().int().nonnegative() })
  .passthrough();

/** A count in `input_tokens_details`, when it is one: a detail the relay cannot read is not a malformed usage. */
const detailCount = (details: unknown, name: string): number | undefined => {
  const count = isJsonObject(details) ? details[name] : undefined;
  return typeof count === 'number' && count > 0 ? count : undefined;
};

/**
 * A Response's `usage` as the relay accounts it: `input_tokens` is the whole prompt (cached part
 * included, as `prompt_tokens` is on Chat Completions), `input_tokens_details.cached_tokens` the
 * part read from the cache, and `cache_write_tokens` the part written to it when a relay in front
 * of Anthropic says so. Undefined when absent, `null` (every event before the last) or malformed.
 */
export function readResponsesUsage(usage: unknown): ReportedUsage | undefined {
  const counts = ResponsesUsageCountsSchema.safeParse(usage);
  if (!counts.success) return undefined;
  const reported: ReportedUsage = { promptTokens: counts.data.input_tokens, completionTokens: counts.data.output_tokens };
  const details = counts.data['input_tokens_details'];
  const cacheRead = detailCount(details, 'cached_tokens');
  const cacheWrite = detailCount(details, 'cache_write_tokens');
  if (cacheRead !== undefined) reported.cacheReadTokens = cacheRead;
  if (cacheWrite !== undefined) reported.cacheWriteTokens = cacheWrite;
  return reported;
}
