import ipaddr from 'ipaddr.js';

/**
 * The address a per-address limit counts, from the client IP as the app derives it (`request.ip`,
 * which honours TRUST_PROXY). IPv4 counts as is. IPv6 counts by its /64 prefix: one subscriber or
 * server is usually handed a whole /64, so counting full addresses would give each of them 2^64
 * fresh allowances. An IPv4-mapped IPv6 address (::ffff:1.2.3.4, what a dual-stack socket reports
 * for an IPv4 client) is that IPv4 address.
 */
export function addressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const parsed = ipaddr.process(ip);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}
