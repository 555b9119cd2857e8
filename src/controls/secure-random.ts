import { getRandomValues } from 'node:crypto';

/**
 * The number in [0, 1) that two 32-bit words make: the high word and the top 21 bits of
 * the low one, 53 bits in all (as many as a double holds exactly), divided by 2^53. All
 * ones gives 1 - 2^-53, never 1.
 */
export function fractionOf(high: number, low: number): number {
  return (high * 2 ** 21 + (low >>> 11)) / 2 ** 53;
}

/**
 * The production source of random controls: uniform in [0, 1) from the system CSPRNG
 * (Math.random is not for draws that decide who gets audited).
 */
export function secureRandom(): number {
  const [high, low] = getRandomValues(new Uint32Array(2));
  return fractionOf(high, low);
}
