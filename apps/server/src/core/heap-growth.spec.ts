import v8 from 'node:v8';
import { HEAP_GROWING_PERCENT, holdYoungGeneration, limitHeapGrowth } from './heap-growth';

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

describe('holdYoungGeneration', () => {
  afterEach(() => jest.restoreAllMocks());

  it('stops the young generation growing until released, then gives V8 its factor back once', () => {
    const set = jest.spyOn(v8, 'setFlagsFromString').mockImplementation(() => undefined);
    const release = holdYoungGeneration([], '');
    expect(set).toHaveBeenLastCalledWith('--semi-space-growth-factor=1');
    release();
    release();
    expect(set.mock.calls).toEqual([['--semi-space-growth-factor=1'], ['--semi-space-growth-factor=2']]);
  });

  it('leaves an operator\'s young-generation flags as they are', () => {
    const set = jest.spyOn(v8, 'setFlagsFromString').mockImplementation(() => undefined);
    holdYoungGeneration(['--max-semi-space-size=64'], '')();
    holdYoungGeneration([], '--semi_space_growth_factor=4')();
    holdYoungGeneration([], '--min-semi-space-size=8')();
    expect(set).not.toHaveBeenCalled();
  });
});
