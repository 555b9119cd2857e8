import { describe, expect, it } from 'vitest';
import { fractionOf, secureRandom } from '../../src/controls/secure-random.js';

describe('the production random source of random controls', () => {
  it('maps the extreme words into [0, 1): 0 for none, 1 - 2^-53 (never 1) for all bits set', () => {
    expect(fractionOf(0, 0)).toBe(0);
    expect(fractionOf(0, 2 ** 11)).toBe(2 ** -53);
    expect(fractionOf(0xffffffff, 0xffffffff)).toBe(1 - 2 ** -53);
    expect(fractionOf(0xffffffff, 0xffffffff)).toBeLessThan(1);
    expect(fractionOf(0x80000000, 0)).toBe(0.5);
  });

  it('draws without throwing, in [0, 1), spread evenly', () => {
    const draws = Array.from({ length: 40_000 }, () => secureRandom());
    expect(draws.every((x) => x >= 0 && x < 1)).toBe(true);
    // Each quarter holds about a quarter (±1.5%: about 7 standard deviations at this count).
    for (let q = 0; q < 4; q++) {
      const share = draws.filter((x) => x >= q / 4 && x < (q + 1) / 4).length / draws.length;
      expect(share).toBeGreaterThan(0.235);
      expect(share).toBeLessThan(0.265);
    }
    // Fine-grained: no collisions among 40,000 draws of 53 bits.
    expect(new Set(draws).size).toBe(draws.length);
    // N = 1 always draws (random() < 1/N), as docs/http-contract.md requires.
    expect(draws.every((x) => x < 1 / 1)).toBe(true);
  });
});
