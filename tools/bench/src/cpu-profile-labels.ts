// What a profile frame is called in the summary: the package group its script belongs to, and
// the relay stage (by function name) it is part of.

/** `node:internal/streams/readable` → `node:internal/streams`, `node:events` → itself. */
function nodeModuleGroup(specifier: string): string {
  const segments = specifier.split('/');
  if (segments[0] !== 'internal') return `node:${segments[0] ?? specifier}`;
  return `node:${segments.slice(0, segments[1] === 'deps' ? 3 : 2).join('/')}`;
}

/**
 * The group of a script URL: `node_modules/<pkg>` or `node_modules/@scope/pkg` (the innermost),
 * `relay` for the relay bundle, `node:<module>` for Node's own code, `(other)` for any other
 * script; undefined for frames without a script of their own (natives, wasm), which take their caller's.
 */
export function groupOfUrl(url: string, relayScript: string): string | undefined {
  if (url === '' || url.startsWith('wasm://')) return undefined;
  if (url.startsWith('node:')) return nodeModuleGroup(url.slice('node:'.length));
  const normalized = url.replace(/\\/g, '/');
  const marker = '/node_modules/';
  const at = normalized.lastIndexOf(marker);
  if (at >= 0) {
    const [first = '', second = ''] = normalized.slice(at + marker.length).split('/');
    return first.startsWith('@') ? `${first}/${second}` : first;
  }
  return normalized.endsWith(`/${relayScript}`) || normalized === relayScript ? 'relay' : '(other)';
}

/** A stage of the relay, timed inclusively — every sample with one of these functions on its stack. */
export interface StageSpec {
  label: string;
  functionNames: readonly string[];
  /** Only frames of this group count (so `parse` of body-parser is not any `parse`). */
  group: string;
}

/**
 * The relay's request path by function name. Inclusive time is on-CPU time with the function on
 * the stack: an async function counts each synchronous stretch it resumes in, not what it awaits.
 */
export const relayStages: readonly StageSpec[] = [
  { label: 'chat route handler', functionNames: ['createChatCompletion'], group: 'relay' },
  { label: 'auth (token lookup)', functionNames: ['authenticate'], group: 'relay' },
  { label: 'JSON body parse', functionNames: ['parse'], group: 'body-parser' },
  { label: 'JSON body parse (relay)', functionNames: ['parseJson'], group: 'relay' },
  { label: 'token policy', functionNames: ['enforceTokenPolicy'], group: 'relay' },
  { label: 'quota reservation', functionNames: ['reserveQuota'], group: 'relay' },
  { label: 'relay to upstream', functionNames: ['relayChatCompletion', 'attemptChannel'], group: 'relay' },
  { label: 'request conversion', functionNames: ['convertToOpenAiRequest'], group: 'relay' },
  { label: 'response conversion', functionNames: ['convertOpenAiResponse'], group: 'relay' },
  { label: 'usage accounting', functionNames: ['recordUsage'], group: 'relay' },
  { label: 'token counting', functionNames: ['countPromptTokens', 'countCompletionTokens'], group: 'relay' },
  { label: 'usage log write', functionNames: ['insertBatch'], group: 'relay' },
];
