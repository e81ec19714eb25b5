import { describeEachBackend } from '../testing/store-backends';
import { describeUsageKeyset } from './usage-keyset.suite';

// Each test opens its own database (on PostgreSQL a schema, migrated): seconds when the machine is busy.
jest.setTimeout(30_000);

describeEachBackend('UsageLogStore.keysetPage', describeUsageKeyset);
