import { randomBytes } from 'node:crypto';
import type { ResponsesRequest } from '@chat-relay/contract';
import type { ListedItem } from './responses-wire';

/** `resp_…`, `msg_…`, `fc_…`: a prefix and 48 hex digits, like OpenAI's ids. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(24).toString('hex')}`;
}

/** The id prefix OpenAI uses for each item type (`msg_` for messages, `fc_` for calls …). */
function idPrefixOf(type: string): string {
  switch (type) {
    case 'message':
      return 'msg';
    case 'function_call':
      return 'fc';
    case 'function_call_output':
      return 'fco';
    case 'custom_tool_call':
      return 'ctc';
    case 'custom_tool_call_output':
      return 'ctco';
    case 'reasoning':
      return 'rs';
    default:
      return 'item';
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** String content as the typed part list OpenAI lists back (`input_text`, or `output_text` for the assistant). */
function contentParts(role: unknown, content: unknown): unknown {
  if (typeof content !== 'string') return content;
  return role === 'assistant'
    ? [{ type: 'output_text', text: content, annotations: [], logprobs: [] }]
    : [{ type: 'input_text', text: content }];
}

/** One input item as stored: typed, with an id and a status, string content as parts. */
function listedItem(item: Record<string, unknown>): ListedItem {
  const type = typeof item['type'] === 'string' ? item['type'] : 'message';
  const id = typeof item['id'] === 'string' && item['id'].length > 0 ? item['id'] : newId(idPrefixOf(type));
  const status = item['status'] ?? 'completed';
  if (type === 'message') return { ...item, id, type, status, content: contentParts(item['role'], item['content']) };
  if (type === 'function_call' || type === 'function_call_output') return { ...item, id, type, status };
  return { ...item, id, type };
}

/**
 * `input` as the list of items it stands for, each with an id: a string is one user message.
 * Item references are left as they are (see `resolveReferences`).
 */
export function listedInputItems(input: ResponsesRequest['input']): ListedItem[] {
  if (input === undefined) return [];
  if (typeof input === 'string') return [listedItem({ type: 'message', role: 'user', content: input })];
  return input.map((item) => listedItem({ ...item }));
}

export type ResolvedItems = { kind: 'items'; items: ListedItem[] } | { kind: 'missing'; id: string };

/** `{type: 'item_reference', id}` replaced by the stored item it names. */
export function resolveReferences(items: readonly ListedItem[], findItem: (id: string) => ListedItem | undefined): ResolvedItems {
  const resolved: ListedItem[] = [];
  for (const item of items) {
    if (item.type !== 'item_reference') {
      resolved.push(item);
      continue;
    }
    const found = findItem(item.id);
    if (!found) return { kind: 'missing', id: item.id };
    resolved.push(found);
  }
  return { kind: 'items', items: resolved };
}

/** The text of a message's parts (`input_text`, `output_text`, `refusal`), joined by spaces. */
export function textOfParts(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .flatMap((part) => {
      if (!isRecord(part)) return [];
      if (typeof part['text'] === 'string') return [part['text']];
      if (typeof part['refusal'] === 'string') return [part['refusal']];
      return [];
    })
    .filter((text) => text.length > 0)
    .join(' ');
}
