/**
 * Whether a text is an IPv4 or IPv6 address, as Node's `net.isIP` answers (dotted quads
 * without leading zeros; IPv6 with one `::` at most, an IPv4 tail, a `%zone`). Written
 * here because objects are pure: node:net is the socket module.
 */

const HEX_GROUP = /^[0-9a-f]{1,4}$/i;
const ZONE = /^[0-9a-z.:-]+$/i;

export function isIpv4Address(text: string): boolean {
  const parts = text.split('.');
  return (
    parts.length === 4 &&
    parts.every((part) => /^(?:0|[1-9]\d{0,2})$/.test(part) && Number(part) <= 255)
  );
}

/** How many 16-bit groups a run of `:`-separated groups stands for; -1 when malformed. */
function groupCount(run: string, ipv4TailAllowed: boolean): number {
  if (run === '') return 0;
  const groups = run.split(':');
  let count = 0;
  for (let i = 0; i < groups.length; i++) {
    const group = groups[i] as string;
    if (HEX_GROUP.test(group)) count += 1;
    else if (ipv4TailAllowed && i === groups.length - 1 && isIpv4Address(group)) count += 2;
    else return -1;
  }
  return count;
}

export function isIpv6Address(text: string): boolean {
  const percent = text.indexOf('%');
  const address = percent < 0 ? text : text.slice(0, percent);
  if (percent >= 0 && !ZONE.test(text.slice(percent + 1))) return false;
  const halves = address.split('::');
  if (halves.length > 2) return false;
  if (halves.length === 1) return groupCount(address, true) === 8;
  const [head, tail] = halves as [string, string];
  const before = groupCount(head, false);
  const after = groupCount(tail, true);
  // `::` stands for at least one group of zeros.
  return before >= 0 && after >= 0 && before + after <= 7;
}

/** 4 or 6 for an address of that family, 0 for anything else (`net.isIP`'s answer). */
export function ipAddressFamily(text: string): 0 | 4 | 6 {
  if (isIpv4Address(text)) return 4;
  return isIpv6Address(text) ? 6 : 0;
}
