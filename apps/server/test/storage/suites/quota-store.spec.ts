import { describeEachBackend } from '../testing/store-backends';
import { describeQuotaStore } from './quota-store.suite';
import { describeQuotaWindows } from './quota-windows.suite';

// Each test opens its own database (on PostgreSQL a schema, migrated): seconds when the machine is busy.
jest.setTimeout(30_000);

describeEachBackend('QuotaStore', describeQuotaStore);
describeEachBackend('QuotaStore windows', describeQuotaWindows);
