import type { ChatCompletionRequest, ToolChoice } from '@chat-relay/contract';
import { invalidRequest } from '../../errors/relay-error';
import type { GeminiFunctionDeclaration, GeminiToolConfig, GenerateContentRequest } from '../gemini-api';
import { sanitizeGeminiSchema } from './sanitize-gemini-schema';
import { customToolAsFunction } from '../../hub/custom-tool-as-function';

/** Gemini's rule for function names (OpenAI's allows a leading digit or dash; Gemini does not). */
const GEMINI_FUNCTION_NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;

export type ConvertedTools = Pick<GenerateContentRequest, 'tools' | 'toolConfig'>;

type ToolsRequest = Pick<ChatCompletionRequest, 'tools' | 'tool_choice' | 'parallel_tool_calls'>;

/**
 * `tools`, `tool_choice` and `parallel_tool_calls` → Gemini `tools[].functionDeclarations` and
 * `toolConfig.functionCallingConfig`:
 *   auto → AUTO, none → NONE, required → ANY, a named function or custom tool → ANY + allowedFunctionNames,
 *   allowed_tools → ANY + allowedFunctionNames (mode required) or AUTO over only those tools (auto).
 * A custom (freeform) tool is a function of one string (see customToolAsFunction).
 * A function's `strict` flag has no Gemini counterpart and is not sent; its parameters are
 * sanitised to Gemini's schema subset. `parallel_tool_calls: false` is a 400: Gemini has no
 * switch for it, and a caller that cannot take several calls would break on the first batch.
 */
export function convertToGeminiTools(request: ToolsRequest): ConvertedTools {
  let declarations = (request.tools ?? []).map(convertTool);
  declarations.forEach(({ name }, index) => {
    if (declarations.findIndex((other) => other.name === name) !== index) {
      throw invalidRequest(`Function '${name}' is declared twice.`, `tools[${index}].function.name`);
    }
  });
  const declared = declarations.map(({ name }) => name);
  const choice = request.tool_choice;
  if (declarations.length === 0) {
    if (choice === undefined || choice === 'auto' || choice === 'none') return {};
    throw invalidRequest('tool_choice asks for a tool call, but the request declares no tools.', 'tool_choice');
  }

  const config = convertToolChoice(choice, declared);
  if (config.allowOnly) declarations = declarations.filter(({ name }) => config.allowOnly?.includes(name));
  if (request.parallel_tool_calls === false && config.toolConfig?.functionCallingConfig.mode !== 'NONE') {
    throw invalidRequest(
      'parallel_tool_calls: false cannot be honoured by a Gemini channel: Gemini may always answer with several ' +
        'function calls at once. Leave it unset (or true) and handle every call.',
      'parallel_tool_calls',
    );
  }
  const tools = [{ functionDeclarations: declarations }];
  return config.toolConfig ? { tools, toolConfig: config.toolConfig } : { tools };
}

function convertTool(tool: NonNullable<ToolsRequest['tools']>[number], index: number): GeminiFunctionDeclaration {
  const param = `tools[${index}]`;
  // Gemini has no freeform tools: a custom one is a function of one string (customToolAsFunction).
  const { name, description, parameters } = tool.type === 'function' ? tool.function : customToolAsFunction(tool);
  if (!GEMINI_FUNCTION_NAME.test(name)) {
    throw invalidRequest(
      `Function name '${name}' is not accepted by Gemini: it must start with a letter or an underscore.`,
      `${param}.${tool.type}.name`,
    );
  }
  const declaration: GeminiFunctionDeclaration = { name };
  if (description !== undefined) declaration.description = description;
  const schema = parameters && sanitizeGeminiSchema(parameters, `${param}.${tool.type === 'function' ? 'function.parameters' : 'custom'}`, 'parameters');
  if (schema) declaration.parameters = schema;
  return declaration;
}

interface ConvertedChoice {
  toolConfig?: GeminiToolConfig;
  /** Declare only these functions (allowed_tools in auto mode). */
  allowOnly?: string[];
}

function convertToolChoice(choice: ToolChoice | undefined, declared: readonly string[]): ConvertedChoice {
  if (choice === undefined) return {};
  if (choice === 'auto') return { toolConfig: { functionCallingConfig: { mode: 'AUTO' } } };
  if (choice === 'none') return { toolConfig: { functionCallingConfig: { mode: 'NONE' } } };
  if (choice === 'required') return { toolConfig: { functionCallingConfig: { mode: 'ANY' } } };
  switch (choice.type) {
    case 'function': {
      const name = declaredName(choice.function.name, declared, 'tool_choice.function.name');
      return { toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [name] } } };
    }
    case 'allowed_tools': {
      const names = choice.allowed_tools.tools.map((tool, index) => {
        const param = `tool_choice.allowed_tools.tools[${index}]`;
        const fn = tool['function'];
        const name = typeof fn === 'object' && fn !== null && 'name' in fn ? fn.name : undefined;
        if (tool['type'] !== 'function' || typeof name !== 'string') {
          throw invalidRequest('Gemini channels only allow function tools here.', param);
        }
        return declaredName(name, declared, `${param}.function.name`);
      });
      if (choice.allowed_tools.mode === 'required') {
        return { toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: names } } };
      }
      return { toolConfig: { functionCallingConfig: { mode: 'AUTO' } }, allowOnly: names };
    }
    case 'custom': {
      const name = declaredName(choice.custom.name, declared, 'tool_choice.custom.name');
      return { toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [name] } } };
    }
    default: {
      const unhandled: never = choice;
      throw new Error(`unhandled tool_choice ${JSON.stringify(unhandled)}`);
    }
  }
}

function declaredName(name: string, declared: readonly string[], param: string): string {
  if (!declared.includes(name)) throw invalidRequest(`Function '${name}' is not among the request's tools.`, param);
  return name;
}
