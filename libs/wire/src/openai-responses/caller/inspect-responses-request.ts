import type { HostedToolKind } from '@chat-relay/contract';
import { isJsonObject, type JsonObject } from '../../json/json-checks';
import { emptyCarriage, idOf, premiumTier, type PassthroughCarriage, type UpstreamObjectKind } from '../../passthrough/passthrough-carriage';

/** The image model OpenAI's `image_generation` tool uses when it names none. */
export const DEFAULT_IMAGE_GENERATION_MODEL = 'gpt-image-1';

/** Tool types OpenAI runs or hosts itself, by kind (and `shell` in a hosted container: code execution). */
const HOSTED_TOOL_TYPES: Readonly<Record<string, HostedToolKind>> = {
  web_search: 'web_search',
  web_search_2025_08_26: 'web_search',
  web_search_preview: 'web_search',
  web_search_preview_2025_03_11: 'web_search',
  file_search: 'file_search',
  code_interpreter: 'code_execution',
  programmatic_tool_calling: 'code_execution',
  image_generation: 'image_generation',
  mcp: 'mcp',
};

/** Tools the caller runs (the provider only asks), and tool search over the request's own tools: never policed. */
const CALLERS_OWN_TOOLS = new Set(['function', 'custom', 'local_shell', 'apply_patch', 'computer', 'computer_use_preview', 'tool_search']);

/** `shell` runs in a container of the provider's with these environments; in a local one (or none) the caller runs it. */
const HOSTED_SHELL_ENVIRONMENTS = new Set(['container_auto', 'container_reference']);

const isHostedShell = (tool: JsonObject): boolean => {
  const environment = tool['environment'];
  return isJsonObject(environment) && typeof environment['type'] === 'string' && HOSTED_SHELL_ENVIRONMENTS.has(environment['type']);
};

/** Collects into a carriage; `unknown` are tool types this relay cannot tell the kind of. */
class Inspection {
  readonly carriage: PassthroughCarriage = emptyCarriage();

  object(kind: UpstreamObjectKind, value: unknown, param: string): void {
    const id = idOf(value);
    if (id) this.carriage.objects.push({ kind, id, param });
  }

  objects(kind: UpstreamObjectKind, values: unknown, param: string): void {
    if (Array.isArray(values)) values.forEach((value, index) => this.object(kind, value, `${param}[${index}]`));
  }
}

/** One `tools` entry (a namespace's tools are looked into): what kind it is and the ids it names. */
function inspectTool(seen: Inspection, tool: unknown, param: string): void {
  if (!isJsonObject(tool) || typeof tool['type'] !== 'string') return;
  const type = tool['type'];
  if (CALLERS_OWN_TOOLS.has(type)) return;
  if (type === 'namespace') {
    const tools = tool['tools'];
    if (Array.isArray(tools)) tools.forEach((inner, index) => inspectTool(seen, inner, `${param}.tools[${index}]`));
    return;
  }
  if (type === 'shell' && !isHostedShell(tool)) return;
  const kind = type === 'shell' ? 'code_execution' : HOSTED_TOOL_TYPES[type];
  if (!kind) {
    seen.carriage.unknownTools = [...(seen.carriage.unknownTools ?? []), { name: type, param }];
    return;
  }
  const model = type === 'image_generation' ? (idOf(tool['model']) ?? DEFAULT_IMAGE_GENERATION_MODEL) : undefined;
  seen.carriage.tools.push({ kind, name: type, param, ...(model ? { model } : {}) });
  if (type === 'file_search') seen.objects('vector_store', tool['vector_store_ids'], `${param}.vector_store_ids`);
  if (type === 'code_interpreter') containerOf(seen, tool['container'], `${param}.container`);
  if (type === 'shell') containerOf(seen, tool['environment'], `${param}.environment`);
  if (type === 'image_generation' && isJsonObject(tool['input_image_mask'])) seen.object('file', tool['input_image_mask']['file_id'], `${param}.input_image_mask.file_id`);
}

/** A container by id (a string, or `container_reference`), or one made for the call with files of the caller's (`auto`). */
function containerOf(seen: Inspection, container: unknown, param: string): void {
  if (typeof container === 'string') return seen.object('container', container, param);
  if (!isJsonObject(container)) return;
  seen.object('container', container['container_id'], `${param}.container_id`);
  seen.objects('file', container['file_ids'], `${param}.file_ids`);
}

/** Files named in an input item's content parts (`input_file`, `input_image` by `file_id`); the place is spelt only for one found. */
function inspectContent(seen: Inspection, content: unknown, itemIndex: number): void {
  if (!Array.isArray(content)) return;
  content.forEach((part, index) => {
    const id = isJsonObject(part) ? idOf(part['file_id']) : undefined;
    if (id) seen.object('file', id, `input[${itemIndex}].content[${index}].file_id`);
  });
}

function inspectInput(seen: Inspection, input: unknown): void {
  if (!Array.isArray(input)) return;
  input.forEach((item, index) => {
    if (!isJsonObject(item)) return;
    if (item['type'] === 'item_reference') return seen.object('item', item['id'], `input[${index}].id`);
    // Tools added along the conversation (Codex sends all of its own this way) are tools like `tools`.
    const added = item['tools'];
    if (item['type'] === 'additional_tools' && Array.isArray(added)) {
      added.forEach((tool, toolIndex) => inspectTool(seen, tool, `input[${index}].tools[${toolIndex}]`));
      return;
    }
    inspectContent(seen, item['content'], index);
  });
}

/**
 * What a Responses request carries beyond plain tokens, for a channel it passes through to:
 * hosted tools by kind (image_generation with the image model it will call), a premium
 * `service_tier`, and the ids of objects kept at OpenAI (in `tools` and in the tools of
 * `additional_tools` input items alike) — `conversation`, a stored `prompt`,
 * vector stores, containers, files, `item_reference`s. `previous_response_id` is not among them:
 * the relay keeps which account created each response.
 */
export function inspectResponsesRequest(body: Readonly<JsonObject>): PassthroughCarriage {
  const seen = new Inspection();
  const tools = body['tools'];
  if (Array.isArray(tools)) tools.forEach((tool, index) => inspectTool(seen, tool, `tools[${index}]`));
  const tier = premiumTier(body['service_tier']);
  if (tier) seen.carriage.serviceTier = { tier, param: 'service_tier' };
  const conversation = body['conversation'];
  seen.object('conversation', isJsonObject(conversation) ? conversation['id'] : conversation, 'conversation');
  const prompt = body['prompt'];
  if (isJsonObject(prompt)) seen.object('prompt', prompt['id'], 'prompt.id');
  inspectInput(seen, body['input']);
  return seen.carriage;
}
