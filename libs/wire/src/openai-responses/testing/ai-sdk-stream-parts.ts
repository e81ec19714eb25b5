/**
 * Test-only: the events as the Vercel AI SDK's own OpenAI Responses model reads them (its
 * `doStream`, fed by a fetch that answers with the events as SSE, no network): the stream parts
 * an application would see. The AI SDK parses every chunk with its own schema and turns what it
 * cannot read into `error` parts; it is the client LiteLLM's unopened message items broke.
 */
import { OpenAIResponsesLanguageModel } from '@ai-sdk/openai/internal';
import type { ResponsesEvent } from './responses-stream-checks';

export interface AiSdkPart {
  type: string;
  [field: string]: unknown;
}

export async function aiSdkStreamParts(events: readonly ResponsesEvent[]): Promise<AiSdkPart[]> {
  const body = events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join('');
  const model = new OpenAIResponsesLanguageModel('gpt-bridged', {
    provider: 'openai.responses',
    url: ({ path }) => `http://relay.invalid/v1${path}`,
    headers: () => ({}),
    fetch: async () => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
  });
  const { stream } = await model.doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] });
  const parts: AiSdkPart[] = [];
  const reader = stream.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) parts.push(read.value as AiSdkPart);
  return parts;
}

/** What the AI SDK parts say: text, reasoning, tool calls, the finish reason, and any error part. */
export function aiSdkSummary(parts: readonly AiSdkPart[]) {
  const text = parts.filter((part) => part.type === 'text-delta').map((part) => String(part['delta'])).join('');
  const calls = parts.filter((part) => part.type === 'tool-call').map((part) => ({ call_id: part['toolCallId'], name: part['toolName'], arguments: part['input'] }));
  const finish = parts.find((part) => part.type === 'finish');
  const errors = parts.filter((part) => part.type === 'error');
  return { text, calls, finish, errors };
}
