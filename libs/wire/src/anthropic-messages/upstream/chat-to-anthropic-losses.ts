import { lossTable } from '../../hub/bridge-loss';

/** What a Chat Completions request loses on its way to an Anthropic channel (docs/guides/bridge-fidelity.md). */
export const CHAT_TO_ANTHROPIC = lossTable('Chat Completions → Anthropic Messages', {
  strictTool: { kind: 'dropped', field: 'tools[*].function.strict', reason: 'Anthropic follows the schema but does not enforce it' },
  strictJsonSchema: { kind: 'dropped', field: 'response_format.json_schema.strict', reason: 'Anthropic follows the schema but does not enforce it' },
  thinkingTemperature: { kind: 'dropped', field: 'temperature', reason: 'with thinking Anthropic takes only temperature 1' },
  thinkingTopK: { kind: 'dropped', field: 'top_k', reason: 'Anthropic takes no top_k with thinking' },
  thinkingTopP: { kind: 'mapped', field: 'top_p', reason: 'with thinking Anthropic takes top_p from 0.95 to 1' },
  thinkingMaxTokens: { kind: 'mapped', field: 'max_tokens', reason: 'raised: Anthropic counts the thinking budget within max_tokens' },
  effortToNearest: { kind: 'mapped', field: 'reasoning_effort', reason: "sent as the nearest output_config.effort this model offers" },
  effortNoRoom: { kind: 'dropped', field: 'reasoning_effort', reason: 'max_tokens leaves no room for the smallest thinking budget' },
  effortUnsignedTurn: { kind: 'dropped', field: 'reasoning_effort', reason: 'the tool-use turn this request continues came back without its thinking (send the thinking_blocks or reasoning items back to keep thinking on)' },
  effortForcedTool: { kind: 'dropped', field: 'reasoning_effort', reason: 'Anthropic refuses thinking when the tool choice forces a tool (tool_choice required or a named function, or a JSON response format)' },
});
