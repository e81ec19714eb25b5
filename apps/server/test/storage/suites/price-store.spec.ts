import { describeEachBackend } from '../testing/store-backends';
import { describePriceStore } from './price-store.suite';

describeEachBackend('PriceStore', describePriceStore);
