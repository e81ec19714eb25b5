import type { ResponsesRequest } from '@chat-relay/contract';
import { newId } from './input-items';
import type { HostedCallItem, ResponseStreamEvent } from './responses-wire';

// OpenAI's hosted tools as the simulator runs them: checked as the Responses API checks them
// (its OpenAPI description: FileSearchTool needs vector_store_ids, CodeInterpreterTool a
// container, ImageGenTool a known model, Tool a known type), and answered with one call item per
// hosted tool before the model's own output, as OpenAI answers (web_search_call, file_search_call,
// code_interpreter_call, image_generation_call).

/** Tool types the Responses API takes (its `Tool` union). */
const TOOL_TYPES = [
  'function',
  'file_search',
  'computer',
  'computer_use_preview',
  'web_search',
  'web_search_2025_08_26',
  'mcp',
  'code_interpreter',
  'programmatic_tool_calling',
  'image_generation',
  'local_shell',
  'shell',
  'custom',
  'namespace',
  'tool_search',
  'web_search_preview',
  'web_search_preview_2025_03_11',
  'apply_patch',
];
const IMAGE_MODELS = ['gpt-image-1', 'gpt-image-1-mini', 'gpt-image-1.5', 'gpt-image-2', 'gpt-image-2-2026-04-21', 'chatgpt-image-latest'];
const SERVICE_TIERS = ['auto', 'default', 'flex', 'scale', 'priority'];

/** A 1×1 transparent PNG: what an image_generation_call's `result` holds (base64). */
const TINY_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

export interface HostedToolRefusal {
  message: string;
  param: string;
  code: string;
}

const listed = (values: readonly string[]) => values.map((value) => `'${value}'`).join(', ');
const invalidValue = (value: unknown, param: string, supported: readonly string[]): HostedToolRefusal => ({
  message: `Invalid value: '${String(value)}'. Supported values are: ${listed(supported)}.`,
  param,
  code: 'invalid_value',
});
const missing = (param: string): HostedToolRefusal => ({ message: `Missing required parameter: '${param}'.`, param, code: 'missing_required_parameter' });

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What a namespace may hold (OpenAPI NamespaceToolParam: `tools` of FunctionToolParam | CustomToolParam). */
const NAMESPACED_TYPES = ['function', 'custom'];

/**
 * A namespace as NamespaceToolParam requires it: a `name` of at least one character and at least
 * one function or custom tool. (`description` is required there too but not enforced: the wording
 * of OpenAI's refusals here was not found quoted, so the generic ones are used.)
 */
function refuseNamespace(fields: Record<string, unknown>, param: string): HostedToolRefusal | undefined {
  if (typeof fields['name'] !== 'string' || fields['name'].length === 0) return missing(`${param}.name`);
  const tools = fields['tools'];
  if (!Array.isArray(tools) || tools.length === 0) return missing(`${param}.tools`);
  for (const [index, inner] of tools.entries()) {
    const type = isRecord(inner) ? inner['type'] : undefined;
    if (!NAMESPACED_TYPES.includes(String(type))) return invalidValue(type, `${param}.tools[${index}].type`, NAMESPACED_TYPES);
  }
  return undefined;
}

/** The first tool of a list OpenAI refuses, `at` naming the list (`tools`, `input[0].tools`). */
function refuseTools(tools: readonly unknown[], at: string): HostedToolRefusal | undefined {
  for (const [index, tool] of tools.entries()) {
    const fields = isRecord(tool) ? tool : {};
    const param = `${at}[${index}]`;
    const type = fields['type'];
    if (!TOOL_TYPES.includes(String(type))) return invalidValue(type, `${param}.type`, TOOL_TYPES);
    if (type === 'file_search' && !(Array.isArray(fields['vector_store_ids']) && fields['vector_store_ids'].length > 0)) return missing(`${param}.vector_store_ids`);
    if (type === 'code_interpreter' && fields['container'] === undefined) return missing(`${param}.container`);
    if (type === 'image_generation' && fields['model'] !== undefined && !IMAGE_MODELS.includes(String(fields['model']))) {
      return invalidValue(fields['model'], `${param}.model`, IMAGE_MODELS);
    }
    if (type === 'namespace') {
      const refused = refuseNamespace(fields, param);
      if (refused) return refused;
    }
  }
  return undefined;
}

/**
 * An `additional_tools` input item as AdditionalToolsItemParam allows it: role `developer` (the
 * only one supported, and the default) and a list of tools, each checked as `tools` is.
 */
function refuseAdditionalTools(item: Record<string, unknown>, at: string): HostedToolRefusal | undefined {
  const role = item['role'];
  if (role !== undefined && role !== 'developer') return invalidValue(role, `${at}.role`, ['developer']);
  const tools = item['tools'];
  if (!Array.isArray(tools)) return missing(`${at}.tools`);
  return refuseTools(tools, `${at}.tools`);
}

/** What OpenAI refuses in the tools (`tools` and `additional_tools` input items) and `service_tier` of a request, or undefined. */
export function refuseHostedTools(request: ResponsesRequest): HostedToolRefusal | undefined {
  const tier = request['service_tier'];
  if (tier !== undefined && tier !== null && !SERVICE_TIERS.includes(String(tier))) return invalidValue(tier, 'service_tier', SERVICE_TIERS);
  const refused = refuseTools(request.tools ?? [], 'tools');
  if (refused) return refused;
  if (!Array.isArray(request.input)) return undefined;
  for (const [index, item] of request.input.entries()) {
    if (item.type !== 'additional_tools') continue;
    const refusedItem = refuseAdditionalTools(item, `input[${index}]`);
    if (refusedItem) return refusedItem;
  }
  return undefined;
}

/** The tier a response says served it: what was asked, `default` for `auto`. */
export function servedTier(request: ResponsesRequest): string {
  const tier = request['service_tier'];
  return typeof tier === 'string' && tier !== 'auto' ? tier : 'default';
}

/** One call item per hosted tool the request offers (none under `tool_choice: "none"`), `query` the user's last words. */
export function hostedCallItems(request: ResponsesRequest, query: string): HostedCallItem[] {
  if (request.tool_choice === 'none') return [];
  return (request.tools ?? []).flatMap((tool): HostedCallItem[] => {
    const fields: Record<string, unknown> = tool;
    switch (tool.type) {
      case 'web_search':
      case 'web_search_2025_08_26':
      case 'web_search_preview':
      case 'web_search_preview_2025_03_11':
        return [{ id: newId('ws'), type: 'web_search_call', status: 'completed', action: { type: 'search', query } }];
      case 'file_search':
        return [{ id: newId('fs'), type: 'file_search_call', status: 'completed', queries: [query], results: null }];
      case 'code_interpreter': {
        const container = typeof fields['container'] === 'string' ? fields['container'] : newId('cntr');
        return [{ id: newId('ci'), type: 'code_interpreter_call', status: 'completed', container_id: container, code: 'print(6 * 7)', outputs: null }];
      }
      case 'image_generation':
        return [{ id: newId('ig'), type: 'image_generation_call', status: 'completed', result: TINY_PNG }];
      default:
        return [];
    }
  });
}

/** The events OpenAI streams for one hosted call: added (in progress), its own progress events, done. */
export function hostedCallEvents(item: HostedCallItem, outputIndex: number): ResponseStreamEvent[] {
  const where = { item_id: item.id, output_index: outputIndex };
  const stages: Record<HostedCallItem['type'], readonly string[]> = {
    web_search_call: ['in_progress', 'searching', 'completed'],
    file_search_call: ['in_progress', 'searching', 'completed'],
    code_interpreter_call: ['in_progress', 'interpreting', 'completed'],
    image_generation_call: ['in_progress', 'generating', 'completed'],
  };
  const started = item.type === 'image_generation_call' ? { ...item, status: 'in_progress', result: null } : { ...item, status: 'in_progress' };
  return [
    { type: 'response.output_item.added', item: started, output_index: outputIndex },
    ...stages[item.type].map((stage) => ({ type: `response.${item.type}.${stage}`, ...where })),
    { type: 'response.output_item.done', item, output_index: outputIndex },
  ];
}
