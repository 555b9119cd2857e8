import { isIPv6 } from 'node:net';

/*
 * The keys the account's protections count by: the account a username names, a body field
 * as a counter key, a client address (IPv6 by its /64).
 */

/** The key a username is matched by: `Anna ` and `anna` are one account. */
export const accountOf = (username: string) => username.trim().toLowerCase();

/**
 * Lower-cased and trimmed, so `Anna` and `anna ` share a counter. Never throws: this runs
 * before validation, on any string a client sends. An unpaired surrogate (sent as is, or made
 * by cutting an emoji in half at 320 characters) becomes U+FFFD, which encodeURIComponent
 * takes.
 */
export function keyPart(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const key = value.trim().toLowerCase();
  return key === '' ? undefined : encodeURIComponent(key.slice(0, 320).toWellFormed());
}

/**
 * The counter of a client address: an IPv4 address as is, an IPv6 address by its /64 (one
 * customer line holds a whole /64: counting each of its 2^64 addresses apart would bound
 * nothing). An IPv4-mapped IPv6 address counts as its IPv4 address.
 */
export function addressKey(ip: string): string {
  const address = ip.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (!isIPv6(address)) return address;
  const [head, tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') ? (tail ? tail.split(':') : []) : [];
  // An embedded IPv4 tail (`::1.2.3.4`) takes two groups; only the first four matter here.
  const groups = [
    ...left,
    ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'),
    ...right,
  ];
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}
