import { describeEachBackend } from '../testing/store-backends';
import { describeCatalogueStore } from './catalogue-store.suite';

describeEachBackend('CatalogueStore', describeCatalogueStore);
