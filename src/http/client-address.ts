import proxyAddr from '@fastify/proxy-addr';

/**
 * TRUST_PROXY, parsed (docs/operations.md "Behind a reverse proxy"). The client address is
 * the right-most `X-Forwarded-For` entry that a trusted hop wrote: entries to its left were
 * written by the client and are never believed.
 * - `hops`: the service is reached only through this many proxies (each appends the address
 *   it saw); the N-th entry from the right is the client.
 * - `addresses`: proxies by address or CIDR (or proxy-addr's `loopback`, `linklocal`,
 *   `uniquelocal`); entries are skipped from the right while they name a trusted proxy.
 * - `all`: every entry believed, so the left-most (client-written) one wins. Outside
 *   production only: it lets any client pick its address.
 */
export type TrustProxy =
  | { kind: 'hops'; hops: number }
  | { kind: 'addresses'; addresses: string[] }
  | { kind: 'all' };

/** What Fastify's `trustProxy` takes: a function of (address, distance from the socket). */
export type TrustFunction = (address: string, hop: number) => boolean;

export function trustFunction(trust: TrustProxy | undefined): TrustFunction | false | true {
  if (trust === undefined) return false;
  switch (trust.kind) {
    case 'all':
      return true;
    case 'hops': {
      // Fastify (5.12.8 on) refuses a bare hop count (a direct client could forge enough
      // hops); we take it as documented: the operator vouches that only the proxies connect.
      const { hops } = trust;
      return (_address, hop) => hop < hops;
    }
    case 'addresses':
      return proxyAddr.compile(trust.addresses);
  }
}

/** Checks an address list as proxy-addr reads it; the problem as a sentence, or undefined. */
export function addressListProblem(addresses: string[]): string | undefined {
  try {
    proxyAddr.compile(addresses);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
