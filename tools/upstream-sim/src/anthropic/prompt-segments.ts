import { countTokens } from '../tokens';
import type { AnthropicMessage, AnthropicPrompt, AnthropicTool, CacheControl, ContentBlock, TextBlock } from './anthropic-api';

// The prompt as the Messages API caches it: tools, then system, then messages, one segment
// per block. The sum of the segments is the prompt's token count (count_tokens and usage
// alike); a segment with `cache_control` is a breakpoint that closes a cacheable prefix.

export type CacheTtl = '5m' | '1h';

export interface PromptSegment {
  /**
   * What the cache compares: where the block sits and the block without its `cache_control`.
   * Computed only when the cache looks (most prompts have no breakpoint).
   */
  key(): string;
  tokens: number;
  /** The breakpoint's lifetime when this block carries `cache_control`. */
  breakpoint: CacheTtl | undefined;
}

/** What an image or a document costs: a flat stand-in, whatever its size. */
export const mediaBlockTokens = 64;

function ttlOf(control: CacheControl | null | undefined): CacheTtl | undefined {
  return control ? (control.ttl ?? '5m') : undefined;
}

/** The block as the cache sees it: `cache_control` marks a breakpoint, it is not content. */
function withoutCacheControl(value: object): string {
  return JSON.stringify(value, (key, entry: unknown) => (key === 'cache_control' ? undefined : entry));
}

/** The blocks of a tool result: text by its words, images and documents at the flat rate. */
function toolResultPartTokens(blocks: readonly { type: string; text?: unknown }[]): number {
  return blocks.reduce(
    (sum, block) => sum + (block.type === 'text' && typeof block.text === 'string' ? countTokens(block.text) : mediaBlockTokens),
    0,
  );
}

/** Thinking blocks of past turns are stripped from the context, as the API does: they cost nothing. */
function blockTokens(block: ContentBlock): number {
  switch (block.type) {
    case 'text':
      return countTokens(block.text);
    case 'image':
    case 'document':
      return mediaBlockTokens;
    case 'tool_use':
      return countTokens(block.name) + countTokens(JSON.stringify(block.input));
    case 'tool_result':
      if (block.content === undefined) return 0;
      return typeof block.content === 'string' ? countTokens(block.content) : toolResultPartTokens(block.content);
    case 'thinking':
    case 'redacted_thinking':
      return 0;
    default:
      return Math.ceil(withoutCacheControl(block).length / 4);
  }
}

/** A tool result's breakpoint may sit on the result or on a block inside it. */
function blockBreakpoint(block: ContentBlock): CacheTtl | undefined {
  // Thinking blocks cannot be cached on their own.
  const own = block.type === 'thinking' || block.type === 'redacted_thinking' ? undefined : ttlOf(block.cache_control);
  if (own || block.type !== 'tool_result' || !Array.isArray(block.content)) return own;
  return block.content.reduce<CacheTtl | undefined>((found, part) => ttlOf(part.cache_control) ?? found, undefined);
}

function toolSegment(tool: AnthropicTool): PromptSegment {
  const content = withoutCacheControl(tool);
  return { key: () => `tool:${content}`, tokens: Math.ceil(content.length / 4), breakpoint: ttlOf(tool.cache_control) };
}

function systemSegments(system: AnthropicPrompt['system']): PromptSegment[] {
  if (system === undefined || system.length === 0) return [];
  const blocks: TextBlock[] = typeof system === 'string' ? [{ type: 'text', text: system }] : system;
  return blocks.map((block, index) => ({
    key: () => `system:${withoutCacheControl(block)}`,
    tokens: (index === 0 ? countTokens('system') : 0) + countTokens(block.text),
    breakpoint: ttlOf(block.cache_control),
  }));
}

/** The role costs a token, counted on the message's first block. */
function messageSegments(message: AnthropicMessage): PromptSegment[] {
  const roleTokens = countTokens(message.role);
  if (typeof message.content === 'string') {
    const text = message.content;
    return [{ key: () => `${message.role}:${JSON.stringify(text)}`, tokens: roleTokens + countTokens(text), breakpoint: undefined }];
  }
  if (message.content.length === 0) return [{ key: () => `${message.role}:[]`, tokens: roleTokens, breakpoint: undefined }];
  return message.content.map((block, index) => ({
    key: () => `${index === 0 ? message.role : '+'}:${withoutCacheControl(block)}`,
    tokens: (index === 0 ? roleTokens : 0) + blockTokens(block),
    breakpoint: blockBreakpoint(block),
  }));
}

/**
 * The prompt's segments in cache order. A top-level `cache_control` (automatic caching) puts a
 * breakpoint on the last block unless that block has one of its own.
 */
export function promptSegments(prompt: AnthropicPrompt): PromptSegment[] {
  const segments = [
    ...(prompt.tools ?? []).map(toolSegment),
    ...systemSegments(prompt.system),
    ...prompt.messages.flatMap(messageSegments),
  ];
  const automatic = ttlOf(prompt.cache_control);
  const last = segments[segments.length - 1];
  if (automatic && last && !last.breakpoint) segments[segments.length - 1] = { ...last, breakpoint: automatic };
  return segments;
}

/** The prompt's tokens: what count_tokens answers and what usage splits into input and cache. */
export function promptTokens(segments: readonly PromptSegment[]): number {
  return segments.reduce((sum, segment) => sum + segment.tokens, 0);
}

export const maxCacheBreakpoints = 4;

/** More than four breakpoints, in the API's words; undefined otherwise. */
export function checkBreakpointCount(segments: readonly PromptSegment[]): string | undefined {
  const found = segments.filter((segment) => segment.breakpoint !== undefined).length;
  return found > maxCacheBreakpoints
    ? `A maximum of ${maxCacheBreakpoints} blocks with cache_control may be provided. Found ${found}.`
    : undefined;
}
