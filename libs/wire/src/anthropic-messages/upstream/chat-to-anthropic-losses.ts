import { lossTable } from '../../hub/bridge-loss';

/** What a Chat Completions request loses on its way to an Anthropic channel (docs/guides/bridge-fidelity.md). */
export const CHAT_TO_ANTHROPIC = lossTable('Chat Completions → Anthropic Messages', {
  strictTool: { kind: 'dropped', field: 'tools[*].function.strict', reason: 'Anthropic follows the schema but does not enforce it' },
  strictJsonSchema: { kind: 'dropped', field: 'response_format.json_schema.strict', reason: 'Anthropic follows the schema but does not enforce it' },
});
