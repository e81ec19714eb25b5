import { FunctionNameSchema, type ChatCompletionRequest, type ResponsesRequest, type ResponsesTool, type Tool } from '@chat-relay/contract';
import { invalidRequest } from '../../errors/relay-error';
import type { BridgeNotes } from '../../hub/bridge-notes';
import { isWebSearchTool } from './bridge-web-search';

/** What a function without `parameters` takes: nothing (Chat Completions servers want a schema). */
const NO_PARAMETERS = { type: 'object', properties: {} };

/** The function tool of a Responses tool, or undefined for a hosted one (the contract keeps those whole). */
function functionToolOf(tool: ResponsesTool) {
  return tool.type === 'function' ? (tool as Extract<ResponsesTool, { name: string }>) : undefined;
}

function convertTool(tool: ResponsesTool, index: number, notes: BridgeNotes): Tool[] {
  // The relay runs the web search itself before the model answers (see webSearchPlanOf).
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
  searched: boolean,
  notes: BridgeNotes,
): Pick<ChatCompletionRequest, 'tool_choice'> {
  if (choice === undefined) return {};
  // The relay's search is the tool call 'required' asks for; whether to call a function is then the model's choice.
  if (choice === 'required' && searched) return hasTools ? { tool_choice: 'auto' } : {};
  if (typeof choice === 'string') {
    // Without tools, 'auto' and 'none' ask for nothing, and Chat Completions refuses a tool_choice alone.
    return !hasTools && choice !== 'required' ? {} : { tool_choice: choice };
  }
  const name: unknown = choice['name'];
  if (choice.type === 'function' && typeof name === 'string') return { tool_choice: { type: 'function', function: { name } } };
  if (searched && isWebSearchTool(choice)) return {};
  notes.refuse('tool_choice', `tool_choice '${choice.type}'`);
  return {};
}

/**
 * `tools`, `tool_choice` and `parallel_tool_calls` → the hub's. Documented mapping: a function
 * tool → a Chat Completions function (`parameters` absent → an empty object schema; `strict`
 * only when given — Responses makes functions strict by default, Chat Completions does not);
 * the web_search tools are not sent: the relay runs one search itself and gives the model its
 * results (see bridge-web-search.ts); every other tool type (file_search, code_interpreter, mcp,
 * image_generation, computer use, custom, local_shell …) runs at OpenAI: native channels only.
 * tool_choice 'none' | 'auto' | 'required' as is ('auto' and 'none' are not sent when no tool
 * is; 'required' with a web search: the search is that call, so 'auto', or nothing without
 * function tools), `{type: 'function', name}` → `{type: 'function', function: {name}}`, a web
 * search choice → nothing (the search runs anyway), any other (allowed_tools, other hosted
 * tools, custom, mcp) native only; parallel_tool_calls as is when a tool is sent.
 */
export function convertResponsesToolsToChat(
  request: Pick<ResponsesRequest, 'tools' | 'tool_choice' | 'parallel_tool_calls'>,
  notes: BridgeNotes,
): Pick<ChatCompletionRequest, 'tools' | 'tool_choice' | 'parallel_tool_calls'> {
  const tools = (request.tools ?? []).flatMap((tool, index) => convertTool(tool, index, notes));
  const searched = request.tool_choice !== 'none' && (request.tools ?? []).some(isWebSearchTool);
  const parallel = request.parallel_tool_calls;
  return {
    ...(tools.length > 0 ? { tools } : {}),
    ...convertToolChoice(request.tool_choice, tools.length > 0, searched, notes),
    // Like tool_choice, Chat Completions refuses parallel_tool_calls without tools.
    ...(tools.length > 0 && parallel !== undefined && parallel !== null ? { parallel_tool_calls: parallel } : {}),
  };
}
