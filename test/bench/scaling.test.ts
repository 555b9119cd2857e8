import { describe, expect, it } from 'vitest';
import { parseScaling } from '../../bench/seed.js';

describe('BENCH_SCALING', () => {
  it('reads carts, and stores and years where given', () => {
    expect(parseScaling('100000, 1000000,1000000@500x10', { stores: 50, years: 2 })).toEqual([
      { scale: 100_000, stores: 50, years: 2 },
      { scale: 1_000_000, stores: 50, years: 2 },
      { scale: 1_000_000, stores: 500, years: 10 },
    ]);
  });

  it('refuses an entry it cannot read, naming it', () => {
    expect(() => parseScaling('100000,1M', { stores: 50, years: 2 })).toThrow('"1M"');
    expect(() => parseScaling('1000@500', { stores: 50, years: 2 })).toThrow('"1000@500"');
  });
});
