import type { ChatCompletion, ResponseObject, ResponseOutputItem, ResponsesRequest } from '@chat-relay/contract';
import { ChatToResponsesStream, convertChatToResponse, type ChunkTransformer, type NewItemId } from '@chat-relay/wire';
import type { CallerDialect } from '../../pipeline/caller-dialect';
import { sseEvent } from '../../pipeline/stream/sse';

/** One `POST /v1/responses` as its bridged answer needs it: the request it echoes and the ids it carries. */
export interface ResponsesTurn {
  request: ResponsesRequest;
  /** `resp_…`, the same in every event and in what is stored. */
  responseId: string;
  /** Unix seconds. */
  createdAt: number;
  newId: NewItemId;
  /** A bridged answer's final Response object, before the caller receives its last event. */
  onBridged(response: ResponseObject): void;
  /** A whole bridged answer's output before its last model call's: earlier model calls and the web searches the relay ran between them. */
  leadingItems?(): readonly ResponseOutputItem[];
}

/**
 * OpenAI's Responses API as the caller's dialect, for one request: errors in OpenAI's shape,
 * named events with no end marker, and a hub answer bridged into a Response or its lifecycle
 * events. Built per request, because the answer carries the request's id and settings.
 */
export function responsesDialect(turn: ResponsesTurn): CallerDialect {
  const { request, responseId, createdAt } = turn;
  const newId: NewItemId = (prefix) => turn.newId(prefix);

  return {
    name: 'openai',
    framing: {
      done: '',
      // Only when no stream transformer can say it its own way (both Responses streams can).
      error: (error) => {
        const { code, message, param } = error.toBody().error;
        return sseEvent('error', JSON.stringify({ type: 'error', code, message, param, sequence_number: 0 }));
      },
    },
    bridge: {
      completion: (body, publicModel) => {
        // The body an upstream adapter's convertResponse built: a chat.completion by construction.
        const response = convertChatToResponse({
          completion: body as ChatCompletion,
          request,
          responseId,
          createdAt,
          publicModel,
          newId,
          leadingItems: turn.leadingItems?.() ?? [],
        });
        turn.onBridged(response);
        return response;
      },
      stream: (publicModel): ChunkTransformer => {
        const stream = new ChatToResponsesStream({ request, responseId, createdAt, publicModel, newId });
        return {
          transform: (chunk) => stream.transform(chunk),
          hostedSearch: (item) => stream.hostedSearch(item),
          finish: () => {
            const steps = stream.finish();
            turn.onBridged(stream.response);
            return steps;
          },
          fail: (error) => stream.fail(error),
        };
      },
    },
  };
}
