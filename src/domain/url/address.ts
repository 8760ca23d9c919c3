/**
 * Which hosts count as private: loopback, private ranges, link-local, cloud metadata,
 * "localhost" names. The crawler refuses them unless ALLOW_PRIVATE_NETWORKS is true.
 *
 * Hosts are checked after WHATWG URL parsing, which already turns every IPv4 spelling
 * (decimal "2130706433", octal "0177.0.0.1", hex "0x7f.1", short "127.1") into dotted decimal
 * and compresses IPv6; IPv4-mapped and IPv4-compatible IPv6 are unwrapped here.
 */

function ipv4Parts(host: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? parts : null;
}

function isPrivateIPv4(host: string): boolean {
  const p = ipv4Parts(host);
  if (!p) return false;
  const [a, b] = p as [number, number, number, number];
  return (
    a === 0 || // "this" network
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local, cloud metadata
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0 && p[2] === 0) || // IETF protocol assignments
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    a >= 224 // multicast, reserved, broadcast
  );
}

/** Expands an IPv6 literal (no brackets) to eight 16-bit groups, or null. */
function ipv6Groups(host: string): number[] | null {
  let text = host.toLowerCase();
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  // A trailing dotted IPv4 becomes two groups.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const p = ipv4Parts(v4[1] as string);
    if (!p) return null;
    const [a = 0, b = 0, c = 0, d = 0] = p;
    text = `${text.slice(0, -(v4[1] as string).length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (s: string): number[] => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const head = parse(halves[0] as string);
  const tail = halves.length === 2 ? parse(halves[1] as string) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? head.length !== 8 : missing < 1) return null;
  const groups = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

export function isPrivateIPv6(host: string): boolean {
  const g = ipv6Groups(host);
  if (!g) return false;
  const [g0, , , , , g5, g6, g7] = g as [number, number, number, number, number, number, number, number];
  const allZeroPrefix = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (allZeroPrefix(7) && (g7 === 0 || g7 === 1)) return true; // :: and ::1
  const embedded = `${g6 >> 8}.${g6 & 255}.${g7 >> 8}.${g7 & 255}`;
  if (allZeroPrefix(5) && g5 === 0xffff) return isPrivateIPv4(embedded); // ::ffff:a.b.c.d
  if (allZeroPrefix(6)) return isPrivateIPv4(embedded); // ::a.b.c.d (deprecated compatible form)
  if (g0 === 0x64 && g[1] === 0xff9b) return isPrivateIPv4(embedded); // NAT64 64:ff9b::/96
  if ((g0 & 0xfe00) === 0xfc00) return true; // unique local fc00::/7
  if ((g0 & 0xffc0) === 0xfe80) return true; // link-local fe80::/10
  if ((g0 & 0xffc0) === 0xfec0) return true; // site-local (deprecated)
  if ((g0 & 0xff00) === 0xff00) return true; // multicast
  return false;
}

const PRIVATE_NAMES = [
  /^localhost$/,
  /\.localhost$/,
  /\.local$/,
  /\.internal$/,
  /\.home\.arpa$/,
  /^metadata$/,
  /^metadata\.google\.internal$/,
];

/** `hostname` as URL.hostname gives it (IPv6 in brackets). */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host.startsWith('[') && host.endsWith(']')) return isPrivateIPv6(host.slice(1, -1));
  if (ipv4Parts(host)) return isPrivateIPv4(host);
  return PRIVATE_NAMES.some((re) => re.test(host));
}

export function isPrivateUrl(url: string): boolean {
  try {
    return isPrivateHost(new URL(url).hostname);
  } catch {
    return true;
  }
}

/**
 * Which private addresses may be fetched: all (true), none (false), or a list of host names,
 * IPv4 addresses and IPv4 CIDR ranges (ALLOW_PRIVATE_NETWORKS="127.0.0.1,localhost,10.1.0.0/16").
 */
export type PrivateAllowance = boolean | readonly string[];

export function parsePrivateAllowance(value: string | undefined): PrivateAllowance {
  const text = (value ?? '').trim().toLowerCase();
  if (text === 'true') return true;
  if (text === '' || text === 'false') return false;
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

function ipv4ToInt(host: string): number | null {
  const parts = ipv4Parts(host);
  if (!parts) return null;
  const [a = 0, b = 0, c = 0, d = 0] = parts;
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

function allowedBy(host: string, entry: string): boolean {
  const slash = entry.indexOf('/');
  if (slash < 0) return host === entry;
  const base = ipv4ToInt(entry.slice(0, slash));
  const bits = Number(entry.slice(slash + 1));
  const ip = ipv4ToInt(host);
  if (base === null || ip === null || !Number.isInteger(bits) || bits < 0 || bits > 32) return false;
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return (ip & mask) === (base & mask);
}

/** True when `url` must not be fetched: not parsable, or private and not allowed. */
export function isRefusedUrl(url: string, allow: PrivateAllowance): boolean {
  if (allow === true) return false;
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return true;
  }
  if (!isPrivateHost(host)) return false;
  return allow === false || !allow.some((entry) => allowedBy(host, entry));
}
