import { BlockList, isIP } from 'node:net';

/**
 * One entry of an address list such as METRICS_ALLOW_FROM: an IPv4 or IPv6 address, or a CIDR range
 * (`10.0.0.0/8`, `fd00::/8`). Read by splitting and `net.isIP`, never by a pattern that could backtrack.
 */
export function isAddressRange(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

/** A comma-separated list of address ranges, blanks ignored. */
export const addressRangeList = (text: string): string[] =>
  text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);

/** Whether a client address falls in one of the ranges (BlockList matches IPv4-mapped IPv6 addresses too). */
export function addressMatcher(ranges: string[]): (address: string | undefined) => boolean {
  const list = new BlockList();
  for (const range of ranges) {
    const [address, prefix] = range.split('/') as [string, string | undefined];
    const type = isIP(address) === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return (address) => {
    const family = isIP(address ?? '');
    return family !== 0 && list.check(address!, family === 4 ? 'ipv4' : 'ipv6');
  };
}
