import { randomBytes } from 'node:crypto';
import { invalidRequest } from '@chat-relay/wire';
import { ResponseInputItemSchema, type ResponseInputItem, type ResponsesRequest } from '@chat-relay/contract';
import type { StoredResponseRecord } from '../../storage/types';

/** `resp_…`, `msg_…`: an id shaped like OpenAI's, random enough to be unguessable. */
export const newResponseId = (prefix: string): string => `${prefix}_${randomBytes(24).toString('hex')}`;

const ID_PREFIX: Readonly<Record<string, string>> = {
  message: 'msg',
  function_call: 'fc',
  function_call_output: 'fco',
  reasoning: 'rs',
  item_reference: 'ref',
};

/** Item types OpenAI lists with a `status` (required in its ItemResource schemas). */
const LISTED_WITH_STATUS = new Set(['message', 'function_call', 'function_call_output']);

/** String content as the parts OpenAI lists back: `input_text`, or the assistant's `output_text` with its (empty) annotations and logprobs. */
const contentParts = (role: unknown, text: string): Record<string, unknown>[] =>
  role === 'assistant' ? [{ type: 'output_text', text, annotations: [], logprobs: [] }] : [{ type: 'input_text', text }];

/**
 * A request's `input` as the items `GET /v1/responses/{id}/input_items` lists, as OpenAI lists
 * them: a string is one user message, string content becomes typed parts, messages and function
 * calls and outputs carry a `status` (`completed` when the caller sent none), and every item gets
 * an id (the caller's own when it sent one).
 */
export function inputItemsOf(request: ResponsesRequest): Record<string, unknown>[] {
  const input = request.input ?? [];
  if (typeof input === 'string') {
    return [{ id: newResponseId('msg'), type: 'message', role: 'user', status: 'completed', content: contentParts('user', input) }];
  }
  return input.map((item) => {
    const fields: Record<string, unknown> = item;
    const type = item.type ?? 'message';
    const content = typeof fields['content'] === 'string' ? contentParts(fields['role'], fields['content']) : undefined;
    const status = LISTED_WITH_STATUS.has(type) ? { status: fields['status'] ?? 'completed' } : {};
    return { ...item, type, ...status, ...(content ? { content } : {}), id: typeof item.id === 'string' ? item.id : newResponseId(ID_PREFIX[type] ?? 'item') };
  });
}

/**
 * The conversation a stored chain holds, oldest first: each response's input items, then its
 * output. Instructions are not carried over (as OpenAI does with `previous_response_id`).
 * Stored JSON is read back through the contract's schema: what does not parse is left out.
 */
export function historyOf(chain: readonly StoredResponseRecord[]): ResponseInputItem[] {
  return chain.flatMap((record) => {
    const output = record.response?.['output'];
    return parsedItems([...(record.inputItems ?? []), ...(Array.isArray(output) ? output : [])]);
  });
}

type ListedItem = Record<string, unknown> & { id: string; type: string };
const isListedItem = (item: Record<string, unknown>): item is ListedItem => typeof item['id'] === 'string' && typeof item['type'] === 'string';

/** One page of stored input items, as OpenAI pages them (`desc` by default, cursors by item id; an unknown cursor is a 400). */
export function pageOfItems(
  items: readonly Record<string, unknown>[],
  query: { limit?: number; order?: 'asc' | 'desc'; after?: string; before?: string },
): { object: 'list'; data: ListedItem[]; first_id: string | null; last_id: string | null; has_more: boolean } {
  const listed = items.filter(isListedItem);
  let ordered = query.order === 'asc' ? listed : listed.reverse();
  // A cursor that names no item of the list is the caller's mistake, as OpenAI answers it.
  const indexOf = (id: string, param: 'after' | 'before') => {
    const at = ordered.findIndex((item) => item.id === id);
    if (at < 0) throw invalidRequest(`Item with id '${id}' not found.`, param);
    return at;
  };
  if (query.after !== undefined) ordered = ordered.slice(indexOf(query.after, 'after') + 1);
  if (query.before !== undefined) ordered = ordered.slice(0, indexOf(query.before, 'before'));
  const limit = query.limit ?? 20;
  const data = ordered.slice(0, limit);
  return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data[data.length - 1]?.id ?? null, has_more: ordered.length > limit };
}

/**
 * The ids `item_reference`s in `input` name that neither `input` nor `history` holds: to be
 * looked up among the account's stored responses.
 */
export function unresolvedReferences(request: ResponsesRequest, history: readonly ResponseInputItem[]): string[] {
  const input = typeof request.input === 'string' ? [] : (request.input ?? []);
  const held = new Set([...history, ...input].flatMap((item) => (item.type !== 'item_reference' && typeof item.id === 'string' ? [item.id] : [])));
  return input.flatMap((item) => (item.type === 'item_reference' && typeof item.id === 'string' && !held.has(item.id) ? [item.id] : []));
}

/** Stored items read back through the contract's schema: what does not parse is left out. */
export function parsedItems(raw: readonly unknown[]): ResponseInputItem[] {
  return raw.flatMap((item) => {
    const parsed = ResponseInputItemSchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}
