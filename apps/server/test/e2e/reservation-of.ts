import type { ChatCompletionRequest } from '@chat-relay/contract';
import type { PriceRecord } from '../../src/storage/types';
import { reservationAmount } from '../../src/pipeline/reserve-quota';
import type { TestRelay } from '../testing/test-relay';
import { loadConfig } from '../../src/config';

/**
 * What the relay reserves for `body` on a chat route (micro-USD), as reserveQuota works it out:
 * the prompt counted by its tokenizer, the completion bounded by the request, the model's output
 * limit and RELAY_QUOTA_OUTPUT_RESERVATION_TOKENS (their defaults unless `env` sets them), at
 * `price` (default: the relay's own price for the model).
 */
export async function reservationOf(
  relay: TestRelay,
  body: ChatCompletionRequest,
  options: { price?: PriceRecord; cacheWrites?: boolean; env?: Record<string, string> } = {},
): Promise<number> {
  const config = loadConfig(options.env ?? {});
  const applied = options.price ? { price: options.price, pricedBy: 'spec' } : await relay.services.prices.priceFor(body.model, body.model, 'chat');
  if (!applied) throw new Error(`no price for ${body.model}`);
  return reservationAmount(
    {
      quota: relay.storage.quota,
      prices: relay.services.prices,
      catalogue: relay.services.catalogue,
      defaultCompletionTokens: config.quotaDefaultCompletionTokens,
      outputReservationTokens: config.quotaOutputReservationTokens,
    },
    {
      requestId: 'spec',
      request: body,
      candidates: [{ upstreamModel: body.model, applied }],
      bodyBytes: () => Buffer.byteLength(JSON.stringify(body)),
      passthrough: { cacheWrites: options.cacheWrites },
    },
  );
}
