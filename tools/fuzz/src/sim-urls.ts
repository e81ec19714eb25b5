import { chatOnlyPrefix } from '@chat-relay/upstream-sim';
import type { FuzzSim } from './fuzz-fixtures';

/** The base URLs of a running upstream-sim at `origin`, as `startUpstreamSim` reports its own. */
export function simAt(origin: string, key: string): FuzzSim {
  return {
    baseUrl: `${origin}/v1`,
    chatOnlyBaseUrl: `${origin}${chatOnlyPrefix}/v1`,
    anthropicBaseUrl: `${origin}/v1`,
    geminiBaseUrl: `${origin}/v1beta`,
    key,
  };
}
