import type {
  ResponseFunctionCall,
  ResponseFunctionCallOutput,
  ResponseInputContent,
  ResponseInputItem,
  ResponseInputMessage,
  ResponseItemReferenceSchema,
  ResponseReasoning,
  ResponseInputFileSchema,
  ResponseInputImageSchema,
  ResponseInputTextSchema,
  ResponseOutputTextSchema,
  ResponseRefusalSchema,
} from '@chat-relay/contract';
import type { z } from 'zod';

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
  | { kind: 'other'; type: string };

export function itemKind(item: ResponseInputItem): ItemKind {
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
