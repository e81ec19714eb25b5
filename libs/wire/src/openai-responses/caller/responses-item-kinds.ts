import {
  ResponseInputContentSchema,
  type ResponseFunctionCall,
  type ResponseFunctionCallOutput,
  type ResponseInputContent,
  type ResponseInputItem,
  type ResponseInputMessage,
  type ResponseItemReferenceSchema,
  type ResponseReasoning,
  type ResponseInputFileSchema,
  type ResponseInputImageSchema,
  type ResponseInputTextSchema,
  type ResponseOutputTextSchema,
  type ResponseRefusalSchema,
} from '@chat-relay/contract';
import { z } from 'zod';
import { invalidRequest } from '../../errors/relay-error';

export type ResponseItemReference = z.infer<typeof ResponseItemReferenceSchema>;

/**
 * An input item by kind. The contract keeps unknown item types whole (their `type` is any
 * string), so TypeScript cannot narrow on `item.type`; this can, soundly, because the contract's
 * fallback member refuses every known type.
 */
export type ItemKind =
  | { kind: 'message'; item: ResponseInputMessage }
  | { kind: 'function_call'; item: ResponseFunctionCall }
  | { kind: 'function_call_output'; item: ResponseFunctionCallOutput }
  | { kind: 'reasoning'; item: ResponseReasoning }
  | { kind: 'item_reference'; item: ResponseItemReference }
  /** A hosted web search of an earlier turn (OpenAI's, or the relay's own for a bridged one). */
  | { kind: 'web_search_call' }
  | { kind: 'custom_tool_call'; item: CustomToolCallItem }
  | { kind: 'custom_tool_call_output'; item: CustomToolCallOutputItem }
  /** Tools added along the conversation: taken as tools (see bridged-tools.ts), not a message. */
  | { kind: 'additional_tools' }
  | { kind: 'other'; type: string };

/** OpenAI's CustomToolCall (its OpenAPI description): the call of a freeform tool, its input as text. */
const CustomToolCallItemSchema = z
  .object({ type: z.literal('custom_tool_call'), call_id: z.string().min(1), name: z.string().min(1), namespace: z.string().optional(), input: z.string() })
  .passthrough();
export type CustomToolCallItem = z.infer<typeof CustomToolCallItemSchema>;

/** OpenAI's CustomToolCallOutput: a string or a list of content parts, like a function_call_output's. */
const CustomToolCallOutputItemSchema = z
  .object({ type: z.literal('custom_tool_call_output'), call_id: z.string().min(1), output: z.union([z.string(), z.array(ResponseInputContentSchema)]) })
  .passthrough();
export type CustomToolCallOutputItem = z.infer<typeof CustomToolCallOutputItemSchema>;

/** The contract keeps these items whole: checked here, where they are read (a malformed one is a 400 naming its field). */
function parseItem<T>(schema: z.ZodType<T>, item: ResponseInputItem, type: string, at: (suffix: string) => string): T {
  const parsed = schema.safeParse(item);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const param = at(`.${issue?.path.join('.') ?? ''}`);
  throw invalidRequest(`Invalid '${param}' (${type}): ${issue?.message ?? 'malformed'}.`, param, 'invalid_value');
}

/** `at` names where the item stands (`input[3]`), for the 400 of a malformed one. */
export function itemKind(item: ResponseInputItem, at: (suffix: string) => string = (suffix) => `input${suffix}`): ItemKind {
  const type: unknown = item.type;
  if (type === undefined || type === 'message') return { kind: 'message', item: item as ResponseInputMessage };
  switch (type) {
    case 'function_call':
      return { kind: 'function_call', item: item as ResponseFunctionCall };
    case 'function_call_output':
      return { kind: 'function_call_output', item: item as ResponseFunctionCallOutput };
    case 'reasoning':
      return { kind: 'reasoning', item: item as ResponseReasoning };
    case 'item_reference':
      return { kind: 'item_reference', item: item as ResponseItemReference };
    case 'web_search_call':
      return { kind: 'web_search_call' };
    case 'custom_tool_call':
      return { kind: 'custom_tool_call', item: parseItem(CustomToolCallItemSchema, item, 'custom_tool_call', at) };
    case 'custom_tool_call_output':
      return { kind: 'custom_tool_call_output', item: parseItem(CustomToolCallOutputItemSchema, item, 'custom_tool_call_output', at) };
    case 'additional_tools':
      return { kind: 'additional_tools' };
    default:
      return { kind: 'other', type: String(type) };
  }
}

/** A content part by kind, narrowed the same way as itemKind. */
export type PartKind =
  | { kind: 'input_text'; part: z.infer<typeof ResponseInputTextSchema> }
  | { kind: 'input_image'; part: z.infer<typeof ResponseInputImageSchema> }
  | { kind: 'input_file'; part: z.infer<typeof ResponseInputFileSchema> }
  | { kind: 'output_text'; part: z.infer<typeof ResponseOutputTextSchema> }
  | { kind: 'refusal'; part: z.infer<typeof ResponseRefusalSchema> }
  | { kind: 'other'; type: string };

export function partKind(part: ResponseInputContent): PartKind {
  switch (part.type) {
    case 'input_text':
      return { kind: 'input_text', part: part as z.infer<typeof ResponseInputTextSchema> };
    case 'input_image':
      return { kind: 'input_image', part: part as z.infer<typeof ResponseInputImageSchema> };
    case 'input_file':
      return { kind: 'input_file', part: part as z.infer<typeof ResponseInputFileSchema> };
    case 'output_text':
      return { kind: 'output_text', part: part as z.infer<typeof ResponseOutputTextSchema> };
    case 'refusal':
      return { kind: 'refusal', part: part as z.infer<typeof ResponseRefusalSchema> };
    default:
      return { kind: 'other', type: part.type };
  }
}
