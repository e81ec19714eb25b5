// What a passthrough request carries and what its answer ran, per dialect (issue 26): pure
// inspection for the relay to police and price; the decision is the server's.
export * from './passthrough-carriage';
export { inspectResponsesRequest, DEFAULT_IMAGE_GENERATION_MODEL } from '../openai-responses/inspect-responses-request';
export { ResponsesRunTally, tallyResponsesRun } from '../openai-responses/tally-responses-run';
export { inspectChatRequest } from '../openai-chat/inspect-chat-request';
export { inspectMessagesRequest } from '../anthropic-messages/inspect-messages-request';
export { MessagesRunTally, tallyMessagesRun } from '../anthropic-messages/tally-messages-run';
export { inspectGenerateContentRequest } from '../gemini/inspect-generate-content-request';
export { GenerateContentRunTally, tallyGenerateContentRun } from '../gemini/tally-generate-content-run';
