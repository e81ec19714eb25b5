import { createHash } from 'node:crypto';
import type { ChatCompletionRequest, FunctionDefinition, Message, FunctionToolCall, ToolCall, Usage } from '@chat-relay/contract';
import { argumentsJsonFromSchema, commandLineOf } from './args-from-schema';
import { lastUserText, stripSimMarkers, textOfContent } from './message-text';
import { selectTools, type SelectedTool } from './select-tools';
import { structuredAnswerText } from './structured-answer';
import { countTokens, splitIntoStreamTokens } from './tokens';

export type AnswerPlan =
  | { kind: 'text'; content: string; finishReason: 'stop' | 'length'; usage: Usage }
  | { kind: 'tool_calls'; toolCalls: ToolCall[]; usage: Usage; preamble?: string }
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

export const toolCallName = (call: ToolCall): string => (call.type === 'function' ? call.function.name : call.custom.name);
const toolCallPayload = (call: ToolCall): string => (call.type === 'function' ? call.function.arguments : call.custom.input);

/**
 * A custom tool's call as a function that takes one string, `input` — how providers without
 * freeform tools are offered one (the relay's customToolAsFunction): what the Anthropic and Gemini
 * surfaces answer with (their requests only ever have functions, so this is for the type's sake).
 */
export function asFunctionCall(call: ToolCall): FunctionToolCall {
  return call.type === 'function' ? call : { id: call.id, type: 'function', function: { name: call.custom.name, arguments: JSON.stringify({ input: call.custom.input }) } };
}

const PATCH_INPUT = '*** Begin Patch\n*** Add File: hello.txt\n+hi\n*** End Patch\n';
/** Codex's `exec` runs JavaScript whose `text(…)` is the tool's output. */
const SCRIPT_INPUT = 'text("hi");';

/**
 * What the model writes into a freeform tool, from what it was told of it (description, grammar):
 * a minimal valid patch for a patch grammar (Codex's apply_patch: `*** Begin Patch` …), a line of
 * JavaScript for a tool that runs JavaScript (Codex's exec), else undefined.
 */
function freeformInputFor(toolText: string, command?: string): string | undefined {
  if (toolText.includes('Begin Patch')) return PATCH_INPUT;
  // Asked to run a command: the script runs it with Codex's own exec_command, as its model does.
  if (toolText.includes('JavaScript')) return command === undefined ? SCRIPT_INPUT : `text(await tools.exec_command({ cmd: ${JSON.stringify(command)} }));`;
  return undefined;
}

/**
 * A function's arguments, built from its schema — except a function of one string `input` for a
 * patch or a script (a custom tool offered as a function, as the relay does for Anthropic and
 * Gemini): the model writes what it would write into the custom tool itself.
 */
function functionArguments(tool: SelectedTool, command: string | undefined): string {
  const properties = tool.parameters?.['properties'];
  const oneInput = typeof properties === 'object' && properties !== null && Object.keys(properties).join() === 'input';
  const freeform = oneInput ? freeformInputFor(JSON.stringify([tool.description ?? '', properties]), command) : undefined;
  return freeform !== undefined ? JSON.stringify({ input: freeform }) : argumentsJsonFromSchema(tool.parameters, command);
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

function toolCallsPlan(toolCalls: ToolCall[], promptTokens: number): AnswerPlan {
  const completionTokens = toolCalls.reduce((sum, call) => sum + countTokens(toolCallName(call)) + countTokens(toolCallPayload(call)), 0);
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
function isSearchFunction(tool: SelectedTool): boolean {
  const properties: unknown = tool.parameters?.['properties'];
  const query: unknown = typeof properties === 'object' && properties !== null ? (properties as Record<string, unknown>)['query'] : undefined;
  const type: unknown = typeof query === 'object' && query !== null ? (query as Record<string, unknown>)['type'] : undefined;
  return /(^|[^a-z])search([^a-z]|$)/i.test(tool.name) && type === 'string';
}

/**
 * A function's arguments (see functionArguments: a shell tool gets the command the user wrote in
 * backticks), and a search function's `query` is what the user asked.
 */
function argumentsFor(tool: SelectedTool, userText: string): string {
  const generated = functionArguments(tool, commandLineOf(userText));
  if (!isSearchFunction(tool) || userText === '') return generated;
  return JSON.stringify({ ...(JSON.parse(generated) as Record<string, unknown>), query: userText });
}

/** The calls of `tools`, with deterministic ids (the same request gets the same ids); a custom tool's with its freeform input. */
function toolCallsFor(request: ChatCompletionRequest, tools: readonly SelectedTool[], userText: string): ToolCall[] {
  const digest = requestDigest(request);
  return tools.map((tool, index): ToolCall => {
    const id = `call_${createHash('sha256').update(`${digest}:${index}`).digest('hex').slice(0, 24)}`;
    if (!tool.custom) return { id, type: 'function', function: { name: tool.name, arguments: argumentsFor(tool, userText) } };
    const input = freeformInputFor(JSON.stringify([tool.description ?? '', tool.custom.format ?? null]), commandLineOf(userText)) ?? 'sim input';
    return { id, type: 'custom', custom: { name: tool.name, input } };
  });
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
  // The conversation's turns: instructions sent after them (Claude Code's mid-conversation system
  // messages) are not a turn to answer.
  const turns = request.messages.filter((message) => message.role !== 'system' && message.role !== 'developer');
  const lastMessage = turns[turns.length - 1];

  // A user turn that only follows tool results (Claude Code sends its reminders beside them, so
  // they arrive as tool messages and a user message) answers the results, as a model would.
  const answersToolResults = lastMessage?.role === 'user' && turns[turns.length - 2]?.role === 'tool';
  if (lastMessage?.role === 'user' && !answersToolResults) {
    const userText = stripSimMarkers(textOfContent(lastMessage.content));
    const selection = selectTools(request, userText);
    if (selection.kind === 'invalid') return selection;
    if (selection.tools.length > 0) return toolCallsPlan(toolCallsFor(request, selection.tools, userText), promptTokens);
  }

  const userText = stripSimMarkers(lastUserText(request.messages));
  const again = lastMessage?.role === 'tool' ? searchAgain(request, userText) : undefined;
  if (again) return toolCallsPlan(toolCallsFor(request, [again], userText), promptTokens);
  const structured = structuredAnswerText(request.response_format, userText);
  if (structured !== undefined) return textPlan(request, structured, promptTokens);
  const toolResults = trailingToolResults(answersToolResults ? turns.slice(0, -1) : turns);
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
  const preamble = `Let me call ${plan.toolCalls.map(toolCallName).join(' and ')}.`;
  const preambleTokens = splitIntoStreamTokens(preamble).length;
  return {
    ...plan,
    preamble,
    usage: usageOf(plan.usage.prompt_tokens, plan.usage.completion_tokens + preambleTokens),
  };
}
