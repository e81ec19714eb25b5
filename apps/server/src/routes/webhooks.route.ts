import { initServer } from '@ts-rest/express';
import { webhooksContract } from '@chat-relay/contract';
import { RelayError } from '@chat-relay/wire';

// PLACEHOLDER (issue 32, being built): replaced by the webhooks helper's router.
const pending = (): never => {
  throw new RelayError({ status: 501, type: 'not_implemented', code: 'not_implemented', message: 'Webhooks are not available yet.' });
};

export function webhooksRouter() {
  const s = initServer();
  return s.router(webhooksContract, {
    listWebhooks: pending,
    createWebhook: pending,
    listWebhookDeliveries: pending,
    updateWebhook: pending,
    deleteWebhook: pending,
    testWebhook: pending,
  });
}
