import { RESPONSES_TO_CHAT } from '../responses-bridge-losses';
import { z } from 'zod';
import {
  FunctionNameSchema,
  type ChatCompletionRequest,
  type ResponseInputItem,
  type ResponsesFunctionTool,
  type ResponsesRequest,
  type ResponsesTool,
  type Tool,
} from '@chat-relay/contract';
import { invalidRequest } from '../../errors/relay-error';
import type { BridgeNotes } from '../../hub/bridge-notes';
import { isWebSearchTool, webSearchFunctionTool, type WebSearchPlan } from './bridge-web-search';
import { bridgedToolName, locateResponsesTools, type LocatedTool } from './bridged-tools';

/** What a function without `parameters` takes: nothing (Chat Completions servers want a schema). */
const NO_PARAMETERS = { type: 'object', properties: {} };

const CustomFormatSchema = z.union([
  z.object({ type: z.literal('text') }).passthrough(),
  z.object({ type: z.literal('grammar'), syntax: z.enum(['lark', 'regex']), definition: z.string() }).passthrough(),
]);
const CustomToolSchema = z
  .object({ type: z.literal('custom'), name: z.string(), description: z.string().nullish(), format: CustomFormatSchema.nullish() })
  .passthrough();

function checkedName(name: string, param: string): string {
  if (!FunctionNameSchema.safeParse(name).success) {
    throw invalidRequest(`Invalid ${param}: '${name}'. Names must be 1-64 letters, digits, underscores or dashes.`, param, 'invalid_value');
  }
  return name;
}

/** A Responses custom tool → Chat Completions' (its grammar moves under `format.grammar`). */
function convertCustomTool(tool: ResponsesTool, at: string, namespace: string | undefined): Tool {
  const parsed = CustomToolSchema.safeParse(tool);
  if (!parsed.success) throw invalidRequest(`Invalid ${at}: a custom tool needs a name, and a format of type text or grammar.`, at, 'invalid_value');
  const { name, description, format } = parsed.data;
  const custom = {
    name: checkedName(bridgedToolName(name, namespace), `${at}.name`),
    ...(description ? { description } : {}),
    ...(format?.type === 'grammar' ? { format: { type: 'grammar', grammar: { syntax: format.syntax, definition: format.definition } } } : {}),
    ...(format?.type === 'text' ? { format: { type: 'text' } } : {}),
  };
  return { type: 'custom', custom };
}

function convertTool({ tool, at, namespace }: LocatedTool, notes: BridgeNotes): Tool[] {
  // The web search of `tools` is offered as the relay's own function, once, after the caller's
  // (see webSearchPlanOf); one added by an input item is not run.
  if (isWebSearchTool(tool)) {
    if (!at.startsWith('tools[')) notes.lose(RESPONSES_TO_CHAT.rules.webSearchOutsideTools, { field: at });
    return [];
  }
  if (tool.type === 'tool_search') {
    notes.lose(RESPONSES_TO_CHAT.rules.toolSearch, { field: at });
    return [];
  }
  if (tool.type === 'custom') return [convertCustomTool(tool, at, namespace)];
  if (tool.type !== 'function') {
    notes.refuse(`${at}.type`, `the '${tool.type}' tool`);
    return [];
  }
  const fn = tool as ResponsesFunctionTool;
  return [
    {
      type: 'function',
      function: {
        name: checkedName(bridgedToolName(fn.name, namespace), `${at}.name`),
        ...(fn.description !== undefined && fn.description !== null ? { description: fn.description } : {}),
        parameters: fn.parameters ?? NO_PARAMETERS,
        ...(fn.strict !== undefined && fn.strict !== null ? { strict: fn.strict } : {}),
      },
    },
  ];
}

/** Two tools offered under one name would make their calls ambiguous: OpenAI refuses duplicates too. */
function checkDistinct(tools: readonly Tool[]): void {
  const seen = new Set<string>();
  tools.forEach((tool, index) => {
    const name = tool.type === 'function' ? tool.function.name : tool.custom.name;
    if (seen.has(name)) throw invalidRequest(`Duplicate tool name: '${name}'.`, `tools[${index}]`, 'invalid_value');
    seen.add(name);
  });
}

function convertToolChoice(
  choice: ResponsesRequest['tool_choice'],
  hasTools: boolean,
  webSearch: WebSearchPlan | undefined,
  searchDeclared: boolean,
  notes: BridgeNotes,
): Pick<ChatCompletionRequest, 'tool_choice'> {
  if (choice === undefined) return {};
  if (typeof choice === 'string') {
    // Without tools, 'auto' and 'none' ask for nothing, and Chat Completions refuses a tool_choice alone.
    return !hasTools && choice !== 'required' ? {} : { tool_choice: choice };
  }
  const name: unknown = choice['name'];
  if (choice.type === 'function' && typeof name === 'string') return { tool_choice: { type: 'function', function: { name } } };
  if (choice.type === 'custom' && typeof name === 'string') return { tool_choice: { type: 'custom', custom: { name } } };
  // The hosted search asked for: its function.
  if (webSearch && isWebSearchTool(choice)) return { tool_choice: { type: 'function', function: { name: webSearch.functionName } } };
  // Declared but not offered (external_web_access false): the model answers without it.
  if (searchDeclared && isWebSearchTool(choice)) return {};
  notes.refuse('tool_choice', `tool_choice '${choice.type}'`);
  return {};
}

/**
 * `tools` (with the tools of `additional_tools` input items), `tool_choice` and
 * `parallel_tool_calls` → the hub's. Documented mapping: a function tool → a Chat Completions
 * function (`parameters` absent → an empty object schema; `strict` only when given — Responses
 * makes functions strict by default, Chat Completions does not; `defer_loading` not sent: the
 * tool is offered directly); a custom (freeform) tool → a Chat Completions custom tool (its
 * grammar under `format.grammar`; Anthropic and Gemini channels offer it as a function of one
 * string, see their converters); a namespace → its function and custom tools, each named
 * `<namespace>__<name>` (see bridgedToolName; the namespace's own description is not sent),
 * restored on the calls in the answer (see bridged-tools.ts); tool_search → not sent, warned
 * (nothing upstream searches, and the deferred tools are all offered); a web_search tool → the
 * relay's own search function, after the caller's tools (see bridge-web-search.ts: the relay runs
 * each call of it); every other tool type (file_search, code_interpreter, mcp,
 * image_generation, computer use, local_shell …) runs at OpenAI: native channels only.
 * tool_choice 'none' | 'auto' | 'required' as is ('auto' and 'none' are not sent when no tool
 * is), `{type: 'function', name}` → `{type: 'function', function: {name}}`,
 * `{type: 'custom', name}` → `{type: 'custom', custom: {name}}`, a web search choice → the search function (nothing when
 * the search is not offered), any other (allowed_tools, other hosted tools, mcp) native only;
 * parallel_tool_calls as is when a tool is sent.
 */
export function convertResponsesToolsToChat(
  request: Pick<ResponsesRequest, 'tools' | 'tool_choice' | 'parallel_tool_calls' | 'input'>,
  notes: BridgeNotes,
  history: readonly ResponseInputItem[] = [],
  webSearch?: WebSearchPlan,
): Pick<ChatCompletionRequest, 'tools' | 'tool_choice' | 'parallel_tool_calls'> {
  const tools = locateResponsesTools(request, history).flatMap((located) => convertTool(located, notes));
  checkDistinct(tools);
  if (webSearch) tools.push(webSearchFunctionTool(webSearch));
  const parallel = request.parallel_tool_calls;
  return {
    ...(tools.length > 0 ? { tools } : {}),
    ...convertToolChoice(request.tool_choice, tools.length > 0, webSearch, (request.tools ?? []).some(isWebSearchTool), notes),
    // Like tool_choice, Chat Completions refuses parallel_tool_calls without tools.
    ...(tools.length > 0 && parallel !== undefined && parallel !== null ? { parallel_tool_calls: parallel } : {}),
  };
}
