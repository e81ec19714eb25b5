import { createHash } from 'node:crypto';
import { ANTHROPIC_TOOL_ID_PATTERN } from '../anthropic-api';

/**
 * Anthropic accepts tool-call ids matching `^[a-zA-Z0-9_-]+$`; calls made through other
 * upstreams carry ids like `llm_version:0`. Such an id is rewritten the same way wherever it
 * appears (the `tool_use` and its `tool_result`), with a hash of the original so that two ids
 * differing only in their invalid characters stay distinct. Valid ids are kept as they are.
 */
export function toAnthropicToolId(id: string): string {
  if (ANTHROPIC_TOOL_ID_PATTERN.test(id)) return id;
  const hash = createHash('sha256').update(id).digest('hex').slice(0, 12);
  const readable = id.replace(/[^a-zA-Z0-9_-]/g, '_');
  return readable ? `${readable}_${hash}` : `call_${hash}`;
}
