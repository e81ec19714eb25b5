// The Responses API objects the simulator writes, typed exactly (the contract's schemas are
// open, for reading what any upstream sends). Items are type aliases, not interfaces, so they
// are also `ListedItem`s. The shapes follow the recorded OpenAI streams and the OpenAPI
// description (`Response`, `ResponseStreamEvent`).

export type ResponseStatus = 'completed' | 'failed' | 'in_progress' | 'cancelled' | 'queued' | 'incomplete';
export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

export type OutputText = {
  type: 'output_text';
  text: string;
  annotations: unknown[];
  logprobs: unknown[];
};

export type OutputMessageItem = {
  id: string;
  type: 'message';
  status: ItemStatus;
  content: OutputText[];
  role: 'assistant';
};

export type FunctionCallItem = {
  id: string;
  type: 'function_call';
  status: ItemStatus;
  arguments: string;
  call_id: string;
  name: string;
  /** The namespace the function was offered in (OpenAI's `namespace` tool), when it was. */
  namespace?: string;
};

/** A call of a custom (freeform) tool: its `input` is text (OpenAPI `CustomToolCall`). */
export type CustomToolCallItem = {
  id: string;
  type: 'custom_tool_call';
  status: ItemStatus;
  call_id: string;
  input: string;
  name: string;
  namespace?: string;
};

/** A call OpenAI ran itself (hosted-tools.ts). */
export type HostedCallItem =
  | { id: string; type: 'web_search_call'; status: ItemStatus; action: { type: 'search'; query: string } }
  | { id: string; type: 'file_search_call'; status: ItemStatus; queries: string[]; results: null }
  | { id: string; type: 'code_interpreter_call'; status: ItemStatus; container_id: string; code: string; outputs: null }
  | { id: string; type: 'image_generation_call'; status: ItemStatus; result: string };

export type OutputItem = OutputMessageItem | FunctionCallItem | CustomToolCallItem | HostedCallItem;

/** An input item as stored and listed back by `input_items`: an item of whatever type, with an id. */
export type ListedItem = Record<string, unknown> & { id: string; type: string };

export interface ResponseUsageBody {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number; cache_write_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

/** The Response object (`object: "response"`) with the request's settings echoed, as OpenAI does. */
export interface ResponseBody {
  id: string;
  object: 'response';
  created_at: number;
  status: ResponseStatus;
  background: boolean;
  completed_at: number | null;
  error: { code: string; message: string } | null;
  incomplete_details: { reason: 'max_output_tokens' } | null;
  instructions: string | null;
  max_output_tokens: number | null;
  max_tool_calls: number | null;
  model: string;
  output: OutputItem[];
  parallel_tool_calls: boolean;
  previous_response_id: string | null;
  prompt_cache_key: string | null;
  reasoning: { effort: string | null; summary: string | null };
  safety_identifier: string | null;
  service_tier: string;
  store: boolean;
  temperature: number;
  text: { format: unknown; verbosity: string };
  tool_choice: unknown;
  tools: unknown[];
  top_logprobs: number;
  top_p: number;
  truncation: 'auto' | 'disabled';
  usage: ResponseUsageBody | null;
  user: string | null;
  metadata: Record<string, string>;
}

/** One streamed event before framing; `sequence_number` is added when it is written. */
export type ResponseStreamEvent = { type: string } & Record<string, unknown>;
