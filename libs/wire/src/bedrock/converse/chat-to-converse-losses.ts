import { lossTable } from '../../hub/bridge-loss';

/** What a Chat Completions request loses on its way to Bedrock's Converse API (docs/guides/bridge-fidelity.md). */
export const CHAT_TO_CONVERSE = lossTable('Chat Completions → Bedrock Converse', {
  toolChoiceNone: { kind: 'dropped', field: 'tools', reason: "Converse has no tool choice 'none': the tools are left out so no tool can be called" },
  toolChoiceNoneWithHistory: { kind: 'mapped', field: 'tool_choice', reason: "Converse has no tool choice 'none' and needs the tools when the conversation holds tool calls: sent as auto" },
  strictTool: { kind: 'dropped', field: 'tools[*].function.strict', reason: 'Converse follows the schema but does not enforce it' },
  parallelToolCalls: { kind: 'dropped', field: 'parallel_tool_calls', reason: 'Converse cannot forbid parallel tool calls' },
  effortToNearest: { kind: 'mapped', field: 'reasoning_effort', reason: "sent as the nearest maxReasoningEffort the model offers" },
  unsignedReasoning: { kind: 'dropped', field: 'messages[*].reasoning_content', reason: 'reasoning without its signed thinking_blocks is not sent back (nothing signs it)' },
});
