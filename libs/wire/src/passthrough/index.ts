// What a passthrough request carries and what its answer ran, per dialect (issue 26): pure
// inspection for the relay to police and price; the decision is the server's.
export * from './passthrough-carriage';
export { inspectResponsesRequest, DEFAULT_IMAGE_GENERATION_MODEL } from '../openai-responses/caller/inspect-responses-request';
export { ResponsesRunTally, tallyResponsesRun } from '../openai-responses/native/tally-responses-run';
export { inspectChatRequest } from '../openai-chat/caller/inspect-chat-request';
export { inspectMessagesRequest } from '../anthropic-messages/caller/inspect-messages-request';
export { MessagesRunTally, tallyMessagesRun } from '../anthropic-messages/native/tally-messages-run';
export { inspectGenerateContentRequest } from '../gemini/caller/inspect-generate-content-request';
export { GenerateContentRunTally, tallyGenerateContentRun } from '../gemini/native/tally-generate-content-run';
