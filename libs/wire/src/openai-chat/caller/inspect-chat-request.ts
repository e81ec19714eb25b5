import type { ChatCompletionRequest } from '@chat-relay/contract';
import { isJsonObject } from '../../json/json-checks';
import { emptyCarriage, idOf, premiumTier, type PassthroughCarriage } from '../../passthrough/passthrough-carriage';

/**
 * What a Chat Completions request sent as it is to an OpenAI-compatible channel carries beyond
 * plain tokens: `web_search_options` (a search model searches once per answer), an audio answer
 * (`modalities` with `audio`, or `audio` set), a premium `service_tier`, and files named by id in
 * message parts. `prediction` is not among them: rejected prediction tokens are billed as
 * completion tokens, which the usage reports.
 */
export function inspectChatRequest(request: ChatCompletionRequest): PassthroughCarriage {
  const carriage = emptyCarriage();
  const fields: Record<string, unknown> = request;
  if (fields['web_search_options'] != null) {
    carriage.tools.push({ kind: 'web_search', name: 'web_search_options', param: 'web_search_options', runsOncePerAnswer: true });
  }
  const modalities = fields['modalities'];
  if (Array.isArray(modalities) && modalities.includes('audio')) carriage.audioOutput = { param: 'modalities' };
  else if (fields['audio'] != null) carriage.audioOutput = { param: 'audio' };
  const tier = premiumTier(request.service_tier);
  if (tier) carriage.serviceTier = { tier, param: 'service_tier' };
  request.messages.forEach((message, index) => {
    if (!Array.isArray(message.content)) return;
    message.content.forEach((part: unknown, partIndex) => {
      const file = isJsonObject(part) && part['type'] === 'file' ? part['file'] : undefined;
      const id = isJsonObject(file) ? idOf(file['file_id']) : undefined;
      if (id) carriage.objects.push({ kind: 'file', id, param: `messages[${index}].content[${partIndex}].file.file_id` });
    });
  });
  return carriage;
}
