import { describeEachBackend } from '../testing/store-backends';
import { describeQuotaStore } from './quota-store.suite';

describeEachBackend('QuotaStore', describeQuotaStore);
