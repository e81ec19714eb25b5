import { lossTable } from '../hub/bridge-loss';

/** What an Anthropic Messages request loses on its way to a channel that does not speak it (docs/guides/bridge-fidelity.md). */
export const MESSAGES_TO_CHAT = lossTable('Anthropic Messages → Chat Completions', {
  betaHeader: { kind: 'dropped', field: 'anthropic-beta', reason: 'betas only Anthropic honours: the channel does not speak its API' },
  otherField: { kind: 'dropped', field: '*', reason: 'it has no Chat Completions counterpart' },
  outputConfigField: { kind: 'dropped', field: 'output_config.*', reason: 'Chat Completions has no such setting (effort and format are sent)' },
  metadataField: { kind: 'dropped', field: 'metadata.*', reason: 'only metadata.user_id has a counterpart (user)' },
  serviceTier: { kind: 'dropped', field: 'service_tier', reason: 'a tier other than auto or standard_only has no Chat Completions counterpart' },
  effortAbove: { kind: 'mapped', field: 'output_config.effort', reason: "xhigh and max are sent as reasoning_effort 'high', the highest Chat Completions offers" },
  thinkingBetweenTools: { kind: 'mapped', field: 'thinking', reason: "thinking 'between_tools' is sent as reasoning_effort 'medium'" },
  thinkingBlocks: { kind: 'dropped', field: 'messages[*].content[*].thinking', reason: 'thinking blocks of earlier turns have no place in a Chat Completions request' },
  prefill: { kind: 'mapped', field: 'messages[*]', reason: 'a final assistant message is sent as history: Chat Completions answers after it rather than continuing it' },
  toolResultIsError: { kind: 'dropped', field: 'tool_result.is_error', reason: 'Chat Completions has no error flag: the result goes as plain content' },
  cacheControl: { kind: 'dropped', field: 'cache_control', reason: 'Chat Completions has no explicit prompt caching (OpenAI-compatible upstreams cache on their own)' },
  citations: { kind: 'dropped', field: 'citations', reason: 'documents are sent as plain content: no citations come back through a bridged channel' },
  toolField: { kind: 'dropped', field: 'tools[*].*', reason: 'Chat Completions tools have no such field' },
  toolChoiceWithoutTools: { kind: 'dropped', field: 'tool_choice', reason: 'there is no tool it could apply to' },
});
