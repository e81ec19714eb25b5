import { createHash } from 'node:crypto';
import type { AnthropicInputUsage } from './anthropic-api';
import type { CacheTtl, PromptSegment } from './prompt-segments';
import { promptTokens } from './prompt-segments';

/** How many blocks before a breakpoint the API looks for an earlier cached prefix. */
export const cacheLookbackBlocks = 20;

/** Prefixes remembered per simulator; the oldest are forgotten first. */
const defaultCapacity = 10_000;

/** One hash per prefix: hash i covers the workspace, the model and segments 0..i. */
function prefixHashes(workspace: string, model: string, segments: readonly PromptSegment[]): string[] {
  let previous = createHash('sha256').update(workspace).update('\n').update(model).digest('hex');
  return segments.map((segment) => {
    previous = createHash('sha256').update(previous).update('\n').update(segment.key()).digest('hex');
    return previous;
  });
}

function emptyUsage(inputTokens: number): AnthropicInputUsage {
  return {
    input_tokens: inputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
  };
}

/**
 * The simulator's prompt cache, deterministic and in memory: a prefix ending at a breakpoint
 * is written the first time it is seen (`cache_creation_input_tokens`) and read every time
 * after (`cache_read_input_tokens`), found at a breakpoint or up to 20 blocks before one, as the
 * API finds the previous turn's prefix. No minimum length and no expiry: the TTL only says which
 * `cache_creation` bucket a write lands in. Each API key is a workspace of its own: Anthropic
 * isolates caches between workspaces (platform.claude.com/docs/en/build-with-claude/prompt-caching,
 * "Cache storage and sharing"), so a prefix cached through one key is written again through another.
 */
export class PromptCache {
  private readonly prefixes = new Set<string>();

  constructor(private readonly capacity = defaultCapacity) {}

  /**
   * The prompt side of usage; `write` records the breakpoints (count_tokens does not). `workspace`
   * names whose cache it is (the caller's API key; the same for every call when keys are not told apart).
   */
  account(model: string, segments: readonly PromptSegment[], options: { write: boolean; workspace?: string }): AnthropicInputUsage {
    const total = promptTokens(segments);
    const breakpoints = segments.flatMap((segment, index) => (segment.breakpoint ? [index] : []));
    const lastBreakpoint = breakpoints[breakpoints.length - 1];
    if (lastBreakpoint === undefined) return emptyUsage(total);

    const hashes = prefixHashes(options.workspace ?? '', model, segments);
    const cachedEnd = Math.max(-1, ...breakpoints.map((breakpoint) => this.cachedPrefixEnd(hashes, breakpoint)));
    const through = (end: number): number => promptTokens(segments.slice(0, end + 1));
    const read = cachedEnd >= 0 ? through(cachedEnd) : 0;
    const cached = through(lastBreakpoint);
    const usage: AnthropicInputUsage = {
      input_tokens: total - cached,
      cache_creation_input_tokens: cached - read,
      cache_read_input_tokens: read,
      cache_creation: creationByTtl(segments, cachedEnd + 1, lastBreakpoint),
    };
    if (options.write) for (const breakpoint of breakpoints) this.remember(hashes[breakpoint] ?? '');
    return usage;
  }

  clear(): void {
    this.prefixes.clear();
  }

  /** The end of the longest cached prefix at `breakpoint` or within the lookback before it; -1 when none. */
  private cachedPrefixEnd(hashes: readonly string[], breakpoint: number): number {
    for (let end = breakpoint; end >= 0 && end > breakpoint - cacheLookbackBlocks; end -= 1) {
      if (this.prefixes.has(hashes[end] ?? '')) return end;
    }
    return -1;
  }

  private remember(hash: string): void {
    // Re-inserted so a prefix in use is the last to be forgotten.
    this.prefixes.delete(hash);
    this.prefixes.add(hash);
    if (this.prefixes.size <= this.capacity) return;
    const oldest = this.prefixes.values().next();
    if (!oldest.done) this.prefixes.delete(oldest.value);
  }
}

/** Each written block counts under the lifetime of the first breakpoint at or after it. */
function creationByTtl(segments: readonly PromptSegment[], from: number, to: number): AnthropicInputUsage['cache_creation'] {
  const byTtl: Record<CacheTtl, number> = { '5m': 0, '1h': 0 };
  let ttl: CacheTtl = '5m';
  for (let index = to; index >= from; index -= 1) {
    const segment = segments[index];
    if (!segment) continue;
    ttl = segment.breakpoint ?? ttl;
    byTtl[ttl] += segment.tokens;
  }
  return { ephemeral_5m_input_tokens: byTtl['5m'], ephemeral_1h_input_tokens: byTtl['1h'] };
}
