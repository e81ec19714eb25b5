export {
  createRelayClient,
  type NonStreamingChatCompletionRequest,
  type RelayApi,
  type RelayClient,
  type RelayClientOptions,
  type RelayTsRestArgs,
  type RequestOptions,
} from './lib/create-relay-client';
export { streamChatCompletion, type StreamChatCompletionArgs } from './lib/stream-chat-completion';
export { exportLogsCsv, filenameOf, DEFAULT_LOGS_CSV_FILENAME, type ExportLogsCsvArgs, type LogsCsvDownload } from './lib/export-logs-csv';
export { parseChatCompletionStream } from './lib/parse-chat-completion-stream';
export { createAxiosFetcher, toFetchHeaders } from './lib/axios-fetcher';
export { RelayApiError, INVALID_RESPONSE_STATUS, type RelayApiErrorInit } from './lib/relay-api-error';
export { unwrap } from './lib/unwrap';
