import { z } from 'zod';
import type { ResponseInputItem, ResponsesRequest, ResponsesTool } from '@chat-relay/contract';
import { invalidRequest } from '../../errors/relay-error';

/**
 * Tools of a Responses request as a bridged channel is offered them: the function and custom
 * (freeform) tools, out of their namespaces, with the tools of `additional_tools` input items —
 * and, for the way back, what each name offered upstream stands for.
 */

/** What a call of an offered name is in the caller's terms. */
export interface BridgedTool {
  /** The tool's own name, as the caller declared it. */
  name: string;
  /** The namespace it was declared in (OpenAI's `namespace` tool). */
  namespace?: string;
  /** A `custom` (freeform) tool: its calls are `custom_tool_call` items carrying text. */
  custom: boolean;
}

/** A function or custom tool found in the request, where it was, and the namespace around it. */
export interface LocatedTool {
  tool: ResponsesTool;
  at: string;
  namespace?: string;
}

const PROVIDER_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** Between namespace and name: `__` cannot be mistaken for the `_` inside either. */
const NAMESPACE_SEPARATOR = '__';

/** FNV-1a, 32 bits, as 8 hex digits: a short stable tag for a name too long to send whole. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/**
 * The name a namespaced tool is offered under: `<namespace>__<name>` when that is a valid
 * function name for OpenAI, Anthropic and Gemini (1-64 of `[a-zA-Z0-9_-]`), else its valid
 * characters cut to 55 and a hash of the whole (still one name per tool, and the same each turn).
 */
export function bridgedToolName(name: string, namespace?: string): string {
  if (namespace === undefined || namespace === '') return name;
  const joined = `${namespace}${NAMESPACE_SEPARATOR}${name}`;
  if (PROVIDER_NAME.test(joined)) return joined;
  return `${joined.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 55)}_${fnv1a(joined)}`;
}

const NamespaceToolSchema = z.object({ type: z.literal('namespace'), name: z.string().min(1), tools: z.array(z.record(z.unknown())) }).passthrough();
const AdditionalToolsSchema = z.object({ type: z.literal('additional_tools'), tools: z.array(z.record(z.unknown())) }).passthrough();

const asTool = (value: Record<string, unknown>): ResponsesTool => value as ResponsesTool;

function expand(tool: ResponsesTool, at: string): LocatedTool[] {
  if (tool.type !== 'namespace') return [{ tool, at }];
  const parsed = NamespaceToolSchema.safeParse(tool);
  if (!parsed.success) throw invalidRequest(`Invalid ${at}: a namespace needs a name and tools.`, at, 'invalid_value');
  const namespace = parsed.data.name;
  return parsed.data.tools.map((inner, index) => ({ tool: asTool(inner), at: `${at}.tools[${index}]`, namespace }));
}

/** The tools of `additional_tools` items, from the history and the input: what the caller added along the way. */
function additionalTools(items: readonly { item: ResponseInputItem; at: string }[]): LocatedTool[] {
  return items.flatMap(({ item, at }) => {
    if (item.type !== 'additional_tools') return [];
    const parsed = AdditionalToolsSchema.safeParse(item);
    if (!parsed.success) throw invalidRequest(`Invalid ${at}: additional_tools needs a tools list.`, `${at}.tools`, 'invalid_value');
    return parsed.data.tools.flatMap((tool, index) => expand(asTool(tool), `${at}.tools[${index}]`));
  });
}

/** Every tool of the request, namespaces opened, `tools` first, then those of additional_tools items in order. */
export function locateResponsesTools(request: Pick<ResponsesRequest, 'tools' | 'input'>, history: readonly ResponseInputItem[] = []): LocatedTool[] {
  const input = typeof request.input === 'string' || request.input === undefined ? [] : request.input;
  const items = [
    ...history.map((item) => ({ item, at: 'previous_response_id' })),
    ...input.map((item, index) => ({ item, at: `input[${index}]` })),
  ];
  return [...(request.tools ?? []).flatMap((tool, index) => expand(tool, `tools[${index}]`)), ...additionalTools(items)];
}

/**
 * Offered name → the tool it stands for, for the function and custom tools of the request. Built
 * once per answer that has a call to read back (a request with no namespace and no custom tool
 * answers every call under its own name).
 */
export function bridgedToolsOf(request: Pick<ResponsesRequest, 'tools' | 'input'>): ReadonlyMap<string, BridgedTool> {
  const byName = new Map<string, BridgedTool>();
  for (const { tool, namespace } of locateResponsesTools(request)) {
    if (tool.type !== 'function' && tool.type !== 'custom') continue;
    const name: unknown = tool['name'];
    if (typeof name !== 'string') continue;
    byName.set(bridgedToolName(name, namespace), { name, ...(namespace !== undefined ? { namespace } : {}), custom: tool.type === 'custom' });
  }
  return byName;
}

/**
 * A custom tool's call as its text: the call itself when the channel has custom tools (OpenAI
 * Chat Completions), else the `input` argument of the one-string function it was offered as.
 */
export function customInputOf(args: string): string {
  try {
    const parsed: unknown = JSON.parse(args);
    if (typeof parsed === 'object' && parsed !== null && 'input' in parsed && typeof parsed.input === 'string') return parsed.input;
  } catch {
    // Not the function's JSON: the text is the input.
  }
  return args;
}
