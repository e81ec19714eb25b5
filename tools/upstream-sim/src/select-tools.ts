import type { ChatCompletionRequest, JsonSchemaObject } from '@chat-relay/contract';

/** A tool the model may call: a function (its parameters), or a custom one (freeform input, maybe a grammar). */
export interface SelectedTool {
  name: string;
  description?: string;
  parameters?: JsonSchemaObject;
  /** Present for a custom tool: its `format` as sent. */
  custom?: { format?: unknown };
}

export type ToolSelection =
  | { kind: 'tools'; tools: SelectedTool[] }
  | { kind: 'invalid'; param: string; message: string };

const noTools: ToolSelection = { kind: 'tools', tools: [] };

function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/**
 * A tool fits when every word of its name (`_` and `-` read as spaces, case-insensitive)
 * is a word of the user's text — which covers the name appearing there as a phrase.
 */
export function toolFitsText(toolName: string, userText: string): boolean {
  const nameWords = wordsOf(toolName.replace(/[_-]+/g, ' '));
  if (nameWords.length === 0) return false;
  const textWords = new Set(wordsOf(userText));
  return nameWords.every((word) => textWords.has(word));
}

function namesAllowedBy(choice: ChatCompletionRequest['tool_choice']): Set<string> | undefined {
  if (typeof choice !== 'object' || choice.type !== 'allowed_tools') return undefined;
  const names = choice.allowed_tools.tools.flatMap((entry) => {
    const fn = entry['function'];
    const name = typeof fn === 'object' && fn !== null && 'name' in fn ? fn.name : entry['name'];
    return typeof name === 'string' ? [name] : [];
  });
  return new Set(names);
}

/**
 * Which tools (functions and custom tools) the simulated model calls for `userText` (the last
 * user message): `tool_choice` "none" → none; a named function or custom tool → exactly it; otherwise every fitting tool
 * (only the first with `parallel_tool_calls: false`), or the first tool when none fits.
 */
export function selectTools(request: ChatCompletionRequest, userText: string): ToolSelection {
  const functions: SelectedTool[] = (request.tools ?? []).map((tool) =>
    tool.type === 'function'
      ? tool.function
      : { name: tool.custom.name, ...(tool.custom.description !== undefined ? { description: tool.custom.description } : {}), custom: { format: tool.custom.format } },
  );
  const choice = request.tool_choice;
  if (functions.length === 0 || choice === 'none') return noTools;

  if (typeof choice === 'object' && (choice.type === 'function' || choice.type === 'custom')) {
    const wanted = choice.type === 'function' ? choice.function.name : choice.custom.name;
    const named = functions.find((fn) => fn.name === wanted && (choice.type === 'custom') === (fn.custom !== undefined));
    if (!named) {
      return {
        kind: 'invalid',
        param: 'tool_choice',
        message: `Invalid value for 'tool_choice': no ${choice.type === 'function' ? 'function' : 'custom tool'} named '${wanted}' was specified in the 'tools' parameter.`,
      };
    }
    return { kind: 'tools', tools: [named] };
  }

  const allowed = namesAllowedBy(choice);
  const candidates = allowed ? functions.filter((fn) => allowed.has(fn.name)) : functions;
  if (candidates.length === 0) return noTools;
  const fitting = candidates.filter((fn) => toolFitsText(fn.name, userText));
  const chosen = fitting.length > 0 ? fitting : candidates.slice(0, 1);
  return { kind: 'tools', tools: request.parallel_tool_calls === false ? chosen.slice(0, 1) : chosen };
}
