import { ResponseInputItemListQuerySchema } from '@chat-relay/contract';
import type { ListedItem } from './responses-wire';

export type InputItemPage =
  | { kind: 'page'; body: { object: 'list'; data: ListedItem[]; first_id: string | null; last_id: string | null; has_more: boolean } }
  | { kind: 'invalid'; param: string; message: string };

const defaultLimit = 20;

/**
 * `GET /v1/responses/{id}/input_items`: `order` (default `desc`, newest first), then the items
 * after the one named by `after`, at most `limit` (1–100, default 20) of them.
 */
export function listInputItems(items: readonly ListedItem[], query: URLSearchParams): InputItemPage {
  const parsed = ResponseInputItemListQuerySchema.safeParse(Object.fromEntries(query));
  if (!parsed.success) {
    const param = String(parsed.error.issues[0]?.path[0] ?? 'query');
    return { kind: 'invalid', param, message: `Invalid '${param}': ${parsed.error.issues[0]?.message ?? 'invalid value'}.` };
  }
  const { limit = defaultLimit, order = 'desc', after } = parsed.data;
  const ordered = order === 'asc' ? [...items] : [...items].reverse();
  let start = 0;
  if (after !== undefined) {
    const index = ordered.findIndex((item) => item.id === after);
    if (index < 0) return { kind: 'invalid', param: 'after', message: `Item with id '${after}' not found.` };
    start = index + 1;
  }
  const data = ordered.slice(start, start + limit);
  return {
    kind: 'page',
    body: {
      object: 'list',
      data,
      first_id: data[0]?.id ?? null,
      last_id: data.at(-1)?.id ?? null,
      has_more: start + limit < ordered.length,
    },
  };
}
