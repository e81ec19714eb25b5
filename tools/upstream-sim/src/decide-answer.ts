import { createHash } from 'node:crypto';
import type { ChatCompletionRequest, FunctionDefinition, Message, FunctionToolCall, Usage } from '@chat-relay/contract';
import { argumentsJsonFromSchema } from './args-from-schema';
import { lastUserText, stripSimMarkers, textOfContent } from './message-text';
import { selectTools } from './select-tools';
import { structuredAnswerText } from './structured-answer';
import { countTokens, splitIntoStreamTokens } from './tokens';

export type AnswerPlan =
  | { kind: 'text'; content: string; finishReason: 'stop' | 'length'; usage: Usage }
  | { kind: 'tool_calls'; toolCalls: FunctionToolCall[]; usage: Usage; preamble?: string }
  | { kind: 'invalid'; param: string; message: string };

/** Text-only part lists read as their text: the same words sent as a string or as parts are the same turn. */
function canonicalMessage(message: Message): Message {
  const { content } = message;
  if (!Array.isArray(content) || !content.every((part) => part.type === 'text')) return message;
  return { ...message, content: textOfContent(content) };
}

/**
 * A stable digest of what the model "sees", so the same request always gets the same ids —
 * in every wire format (Responses and Anthropic send text as parts where Chat sends a string).
 */
export function requestDigest(request: ChatCompletionRequest): string {
  return createHash('sha256')
    .update(JSON.stringify([request.model, request.messages.map(canonicalMessage), request.tools ?? null]))
    .digest('hex');
}

function messageTokens(message: Message): number {
  const calls = message.role === 'assistant' ? (message.tool_calls ?? []) : [];
  const callTokens = calls.reduce(
    (sum, call) =>
      sum +
      (call.type === 'function'
        ? countTokens(call.function.name) + countTokens(call.function.arguments)
        : countTokens(call.custom.name) + countTokens(call.custom.input)),
    0,
  );
  return countTokens(message.role) + countTokens(textOfContent(message.content)) + callTokens;
}

/** Words and punctuation of every message, plus a quarter of the tool definitions' JSON length. */
export function countPromptTokens(request: ChatCompletionRequest): number {
  const toolTokens = request.tools ? Math.ceil(JSON.stringify(request.tools).length / 4) : 0;
  return request.messages.reduce((sum, message) => sum + messageTokens(message), 0) + toolTokens;
}

function usageOf(promptTokens: number, completionTokens: number): Usage {
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
}

/** The tool results that end the conversation, named after the calls they answer. */
export function trailingToolResults(messages: readonly Message[]): { name: string; content: string }[] {
  let start = messages.length;
  while (start > 0 && messages[start - 1]?.role === 'tool') start -= 1;
  const toolNames = new Map<string, string>();
  for (const message of messages.slice(0, start)) {
    if (message.role !== 'assistant') continue;
    for (const call of message.tool_calls ?? []) toolNames.set(call.id, call.type === 'function' ? call.function.name : call.custom.name);
  }
  return messages.slice(start).flatMap((message) =>
    message.role === 'tool'
      ? [{ name: toolNames.get(message.tool_call_id) ?? message.tool_call_id, content: textOfContent(message.content) }]
      : [],
  );
}

function toolCallsPlan(toolCalls: FunctionToolCall[], promptTokens: number): AnswerPlan {
  const completionTokens = toolCalls.reduce((sum, call) => sum + countTokens(call.function.name) + countTokens(call.function.arguments), 0);
  return { kind: 'tool_calls', toolCalls, usage: usageOf(promptTokens, completionTokens) };
}

function textPlan(request: ChatCompletionRequest, answer: string, promptTokens: number): AnswerPlan {
  const tokens = splitIntoStreamTokens(answer);
  const limit = request.max_completion_tokens ?? request.max_tokens ?? undefined;
  if (limit !== undefined && tokens.length > limit) {
    return {
      kind: 'text',
      content: tokens.slice(0, limit).join(''),
      finishReason: 'length',
      usage: usageOf(promptTokens, limit),
    };
  }
  return { kind: 'text', content: answer, finishReason: 'stop', usage: usageOf(promptTokens, tokens.length) };
}

/** A function that searches: its name has the word `search` and it takes a string `query`. */
function isSearchFunction(tool: FunctionDefinition): boolean {
  const properties: unknown = tool.parameters?.['properties'];
  const query: unknown = typeof properties === 'object' && properties !== null ? (properties as Record<string, unknown>)['query'] : undefined;
  const type: unknown = typeof query === 'object' && query !== null ? (query as Record<string, unknown>)['type'] : undefined;
  return /(^|[^a-z])search([^a-z]|$)/i.test(tool.name) && type === 'string';
}

/** A tool's arguments: from its schema, and a search function's `query` is what the user asked. */
function argumentsFor(tool: FunctionDefinition, userText: string): string {
  const generated = argumentsJsonFromSchema(tool.parameters);
  if (!isSearchFunction(tool) || userText === '') return generated;
  return JSON.stringify({ ...(JSON.parse(generated) as Record<string, unknown>), query: userText });
}

/** Deterministic call ids: the same request gets the same ids. */
function toolCallsFor(request: ChatCompletionRequest, tools: readonly FunctionDefinition[], userText: string): FunctionToolCall[] {
  const digest = requestDigest(request);
  return tools.map((tool, index) => ({
    id: `call_${createHash('sha256').update(`${digest}:${index}`).digest('hex').slice(0, 24)}`,
    type: 'function',
    function: { name: tool.name, arguments: argumentsFor(tool, userText) },
  }));
}

/**
 * The search function called once more after its results, when the user asked to "keep
 * searching" (and tool_choice allows it): how a model that never settles looks to the caller.
 */
function searchAgain(request: ChatCompletionRequest, userText: string): FunctionDefinition | undefined {
  if (request.tool_choice === 'none' || !/\bkeep searching\b/i.test(userText)) return undefined;
  const results = trailingToolResults(request.messages);
  const searches = (request.tools ?? []).flatMap((tool) => (tool.type === 'function' && isSearchFunction(tool.function) ? [tool.function] : []));
  return searches.find((tool) => results.some((result) => result.name === tool.name));
}

/**
 * What the simulated model answers, deterministically: tool calls when tools fit the last
 * user message (a search function's `query` is that message), or the search function again after
 * its results when the user asked to "keep searching"; else JSON when `response_format` asks for it (built from the schema, or
 * `{"echo": …}`); else a text that uses the tool results after the calls, or an echo of the user.
 */
export function decideAnswer(request: ChatCompletionRequest): AnswerPlan {
  const promptTokens = countPromptTokens(request);
  const lastMessage = request.messages[request.messages.length - 1];

  if (lastMessage?.role === 'user') {
    const selection = selectTools(request, stripSimMarkers(textOfContent(lastMessage.content)));
    if (selection.kind === 'invalid') return selection;
    if (selection.tools.length > 0) return toolCallsPlan(toolCallsFor(request, selection.tools, stripSimMarkers(textOfContent(lastMessage.content))), promptTokens);
  }

  const userText = stripSimMarkers(lastUserText(request.messages));
  const again = lastMessage?.role === 'tool' ? searchAgain(request, userText) : undefined;
  if (again) return toolCallsPlan(toolCallsFor(request, [again], userText), promptTokens);
  const structured = structuredAnswerText(request.response_format, userText);
  if (structured !== undefined) return textPlan(request, structured, promptTokens);
  const toolResults = trailingToolResults(request.messages);
  if (toolResults.length > 0) {
    const found = toolResults.map((result) => `${result.name}: ${result.content}`).join('; ');
    return textPlan(request, `Here is what I found: ${found}.`, promptTokens);
  }
  return textPlan(request, userText.length > 0 ? `You said: ${userText}` : 'You said nothing.', promptTokens);
}

/**
 * The same tool calls, preceded by a short text naming them (`[sim:preamble=on]`): a text
 * block before `tool_use` blocks is where block and tool indexes part ways.
 */
export function withToolPreamble(plan: AnswerPlan): AnswerPlan {
  if (plan.kind !== 'tool_calls') return plan;
  const preamble = `Let me call ${plan.toolCalls.map((call) => call.function.name).join(' and ')}.`;
  const preambleTokens = splitIntoStreamTokens(preamble).length;
  return {
    ...plan,
    preamble,
    usage: usageOf(plan.usage.prompt_tokens, plan.usage.completion_tokens + preambleTokens),
  };
}
