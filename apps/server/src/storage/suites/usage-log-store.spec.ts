import { describeEachBackend } from '../testing/store-backends';
import { describeUsageLogStore } from './usage-log-store.suite';

describeEachBackend('UsageLogStore', describeUsageLogStore);
