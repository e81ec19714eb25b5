import { FunctionNameSchema, type ChatCompletionRequest, type ResponsesRequest, type ResponsesTool, type Tool } from '@chat-relay/contract';
import { invalidRequest } from '../../errors/relay-error';
import type { BridgeNotes } from '../../hub/bridge-notes';
import { isWebSearchTool, webSearchFunctionTool, type WebSearchPlan } from './bridge-web-search';

/** What a function without `parameters` takes: nothing (Chat Completions servers want a schema). */
const NO_PARAMETERS = { type: 'object', properties: {} };

/** The function tool of a Responses tool, or undefined for a hosted one (the contract keeps those whole). */
function functionToolOf(tool: ResponsesTool) {
  return tool.type === 'function' ? (tool as Extract<ResponsesTool, { name: string }>) : undefined;
}

function convertTool(tool: ResponsesTool, index: number, notes: BridgeNotes): Tool[] {
  // Offered as the relay's own function, once, after the caller's (see webSearchPlanOf).
  if (isWebSearchTool(tool)) return [];
  const fn = functionToolOf(tool);
  if (!fn) {
    notes.refuse(`tools[${index}].type`, `the '${tool.type}' tool`);
    return [];
  }
  if (!FunctionNameSchema.safeParse(fn.name).success) {
    throw invalidRequest(
      `Invalid tools[${index}].name: '${fn.name}'. Names must be 1-64 letters, digits, underscores or dashes.`,
      `tools[${index}].name`,
      'invalid_value',
    );
  }
  return [
    {
      type: 'function',
      function: {
        name: fn.name,
        ...(fn.description !== undefined && fn.description !== null ? { description: fn.description } : {}),
        parameters: fn.parameters ?? NO_PARAMETERS,
        ...(fn.strict !== undefined && fn.strict !== null ? { strict: fn.strict } : {}),
      },
    },
  ];
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
  // The hosted search asked for: its function.
  if (webSearch && isWebSearchTool(choice)) return { tool_choice: { type: 'function', function: { name: webSearch.functionName } } };
  // Declared but not offered (external_web_access false): the model answers without it.
  if (searchDeclared && isWebSearchTool(choice)) return {};
  notes.refuse('tool_choice', `tool_choice '${choice.type}'`);
  return {};
}

/**
 * `tools`, `tool_choice` and `parallel_tool_calls` → the hub's. Documented mapping: a function
 * tool → a Chat Completions function (`parameters` absent → an empty object schema; `strict`
 * only when given — Responses makes functions strict by default, Chat Completions does not);
 * a web_search tool → the relay's own search function, after the caller's functions (see
 * bridge-web-search.ts: the relay runs each call of it); every other tool type (file_search, code_interpreter, mcp,
 * image_generation, computer use, custom, local_shell …) runs at OpenAI: native channels only.
 * tool_choice 'none' | 'auto' | 'required' as is ('auto' and 'none' are not sent when no tool
 * is), `{type: 'function', name}` → `{type: 'function', function: {name}}`, a web search
 * choice → the search function (nothing when the search is not offered), any other (allowed_tools, other hosted
 * tools, custom, mcp) native only; parallel_tool_calls as is when a tool is sent.
 */
export function convertResponsesToolsToChat(
  request: Pick<ResponsesRequest, 'tools' | 'tool_choice' | 'parallel_tool_calls'>,
  notes: BridgeNotes,
  webSearch?: WebSearchPlan,
): Pick<ChatCompletionRequest, 'tools' | 'tool_choice' | 'parallel_tool_calls'> {
  const tools = (request.tools ?? []).flatMap((tool, index) => convertTool(tool, index, notes));
  if (webSearch) tools.push(webSearchFunctionTool(webSearch));
  const parallel = request.parallel_tool_calls;
  return {
    ...(tools.length > 0 ? { tools } : {}),
    ...convertToolChoice(request.tool_choice, tools.length > 0, webSearch, (request.tools ?? []).some(isWebSearchTool), notes),
    // Like tool_choice, Chat Completions refuses parallel_tool_calls without tools.
    ...(tools.length > 0 && parallel !== undefined && parallel !== null ? { parallel_tool_calls: parallel } : {}),
  };
}
