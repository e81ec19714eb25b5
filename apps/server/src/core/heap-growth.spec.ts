import v8 from 'node:v8';
import { HEAP_GROWING_PERCENT, limitHeapGrowth } from './heap-growth';

describe('limitHeapGrowth', () => {
  afterEach(() => jest.restoreAllMocks());

  it('sets the old generation\'s growth factor when the operator did not choose one', () => {
    const set = jest.spyOn(v8, 'setFlagsFromString').mockImplementation(() => undefined);
    expect(limitHeapGrowth([], '')).toBe(true);
    expect(set).toHaveBeenCalledWith(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  });

  it('leaves a value given on the command line or in NODE_OPTIONS as it is', () => {
    const set = jest.spyOn(v8, 'setFlagsFromString').mockImplementation(() => undefined);
    expect(limitHeapGrowth(['--heap-growing-percent=200'], '')).toBe(false);
    expect(limitHeapGrowth([], '--max-old-space-size=512 --heap_growing_percent=10')).toBe(false);
    expect(set).not.toHaveBeenCalled();
  });

  it('is not fooled by a neighbouring flag', () => {
    const set = jest.spyOn(v8, 'setFlagsFromString').mockImplementation(() => undefined);
    expect(limitHeapGrowth(['--heap-growing-percentile=5'], '--max-semi-space-size=8')).toBe(true);
    expect(set).toHaveBeenCalledTimes(1);
  });
});
