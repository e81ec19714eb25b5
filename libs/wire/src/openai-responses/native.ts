// The Responses API passed through natively to an upstream that speaks it (issue 13).
export { openaiResponsesNativeAdapter, buildOpenaiResponsesRequest, type OpenaiResponsesProxyArgs } from './openai-responses-native-adapter';
export { ResponsesPassthroughStream } from './responses-passthrough-stream';
export { rewriteResponseModel } from './rewrite-response-model';
export { readResponsesUsage } from './read-responses-usage';
export { isResponsesEndpointMissing } from './is-responses-endpoint-missing';
