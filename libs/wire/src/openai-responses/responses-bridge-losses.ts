import { lossTable } from '../hub/bridge-loss';

/** What a Responses request loses on its way to a channel that does not speak it (docs/guides/bridge-fidelity.md). */
export const RESPONSES_TO_CHAT = lossTable('OpenAI Responses → Chat Completions', {
  otherField: { kind: 'dropped', field: '*', reason: 'it has no Chat Completions counterpart' },
  truncationAuto: { kind: 'dropped', field: 'truncation', reason: "'auto' is not honoured: a bridged channel refuses an input longer than its context" },
  textField: { kind: 'dropped', field: 'text.*', reason: 'not every channel bridged through Chat Completions has that setting' },
  reasoningSummary: { kind: 'dropped', field: 'reasoning.summary', reason: "reasoning summaries are returned as the provider's reasoning text when it sends one" },
  reasoningField: { kind: 'dropped', field: 'reasoning.*', reason: 'it has no Chat Completions counterpart' },
  reasoningEffortUnknown: { kind: 'dropped', field: 'reasoning.effort', reason: "none of OpenAI's reasoning efforts (none, minimal, low, medium, high, xhigh, max)" },
  encryptedReasoning: { kind: 'dropped', field: 'include.reasoning.encrypted_content', reason: "honoured only where the channel signs its reasoning (anthropic: the relay's encrypted_content); other bridged channels return none to send back" },
  imageDetailOriginal: { kind: 'mapped', field: 'input[*].content[*].detail', reason: "'original' (full resolution) is sent as 'high', the closest Chat Completions level" },
  toolOutputMedia: { kind: 'mapped', field: 'input[*].output', reason: 'images and files of a function_call_output go in a user message after the tool results: a Chat Completions tool message holds text only' },
  reasoningItems: { kind: 'dropped', field: 'input[*](reasoning)', reason: "reasoning items without the relay's encrypted_content: a channel bridged through Chat Completions cannot take that reasoning back" },
  webSearchItems: { kind: 'dropped', field: 'input[*](web_search_call)', reason: 'a channel bridged through Chat Completions cannot take them back (the answers that used their results are sent)' },
  secondWebSearch: { kind: 'dropped', field: 'tools[*](web_search)', reason: 'only the first web_search tool is used: the others add nothing to it' },
  webSearchOutsideTools: { kind: 'dropped', field: 'input[*](additional_tools).tools[*](web_search)', reason: "a bridged channel runs only the web search of 'tools'" },
  toolSearch: { kind: 'dropped', field: 'tools[*](tool_search)', reason: 'a bridged channel cannot search deferred tools: every deferred tool is offered to the model directly' },
  noSearchChannel: { kind: 'dropped', field: 'tools[*](web_search)', reason: 'not offered to the model: no channel serves the web search' },
  searchLocation: { kind: 'dropped', field: 'tools[*].user_location', reason: "the relay's search engines take no location" },
});
