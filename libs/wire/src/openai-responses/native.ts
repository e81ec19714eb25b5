// The Responses API passed through natively to an upstream that speaks it (issue 13).
export { openaiResponsesNativeAdapter, buildOpenaiResponsesRequest, type OpenaiResponsesProxyArgs } from './native/openai-responses-native-adapter';
export { ResponsesPassthroughStream } from './native/responses-passthrough-stream';
export { rewriteResponseModel } from './native/rewrite-response-model';
export { readResponsesUsage } from './native/read-responses-usage';
export { isResponsesEndpointMissing } from './native/is-responses-endpoint-missing';
