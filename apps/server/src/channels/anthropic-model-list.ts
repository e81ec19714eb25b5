import type { AnthropicModel, AnthropicModelList, Model } from '@chat-relay/contract';
import type { Request } from 'express';

/** Anthropic's SDKs send `anthropic-version` on every call; OpenAI's never do. */
export const wantsAnthropicShape = (req: Request): boolean => req.headers['anthropic-version'] !== undefined;

/** Anthropic's default page size for the model list. */
const DEFAULT_LIMIT = 20;

export const toAnthropicModel = (model: Model): AnthropicModel => ({
  type: 'model',
  id: model.id,
  // The relay knows no marketing names: the id is the name a caller uses.
  display_name: model.id,
  created_at: new Date(model.created * 1000).toISOString(),
});

/**
 * One page of the model list in Anthropic's shape: `limit` ids after `after_id` (or before
 * `before_id`), in the list's order, with the ids bounding the page and whether more follow.
 */
export function anthropicModelPage(models: readonly Model[], page: { limit?: number; after_id?: string; before_id?: string }): AnthropicModelList {
  const limit = page.limit ?? DEFAULT_LIMIT;
  let start = 0;
  let end = models.length;
  if (page.after_id !== undefined) start = models.findIndex((model) => model.id === page.after_id) + 1;
  if (page.before_id !== undefined) {
    const before = models.findIndex((model) => model.id === page.before_id);
    end = before === -1 ? models.length : before;
    start = Math.max(start, end - limit);
  }
  const slice = models.slice(start, Math.min(end, start + limit)).map(toAnthropicModel);
  const hasMore = page.before_id !== undefined ? start > 0 : start + slice.length < end;
  return { data: slice, has_more: hasMore, first_id: slice[0]?.id ?? null, last_id: slice.at(-1)?.id ?? null };
}
