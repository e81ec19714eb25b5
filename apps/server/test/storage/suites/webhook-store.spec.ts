import { describeEachBackend } from '../testing/store-backends';
import { describeWebhookStore } from './webhook-store.suite';

describeEachBackend('WebhookStore', describeWebhookStore);
