// Which URLs may receive webhooks: https to public hosts only, so an endpoint can never make the
// service call into a private network, a cloud metadata address or itself.

/** Longest accepted endpoint URL. */
export const MAX_URL_LENGTH = 2048;

export interface UrlPolicy {
  /** Local test runs only: also accept http(s) URLs on loopback addresses. */
  allowLoopback: boolean;
}

/** IPv4 ranges that are not the public internet, as [first octets, prefix length]. */
const BLOCKED_V4: readonly [number, number, number, number, number][] = [
  [0, 0, 0, 0, 8], // "this network"
  [10, 0, 0, 0, 8], // private
  [100, 64, 0, 0, 10], // carrier-grade NAT
  [127, 0, 0, 0, 8], // loopback
  [169, 254, 0, 0, 16], // link-local (cloud metadata services live here)
  [172, 16, 0, 0, 12], // private
  [192, 0, 0, 0, 24], // IETF protocol assignments
  [192, 0, 2, 0, 24], // documentation
  [192, 88, 99, 0, 24], // 6to4 relay anycast
  [192, 168, 0, 0, 16], // private
  [198, 18, 0, 0, 15], // benchmarking
  [198, 51, 100, 0, 24], // documentation
  [203, 0, 113, 0, 24], // documentation
  [224, 0, 0, 0, 4], // multicast
  [240, 0, 0, 0, 4], // reserved, and broadcast
];

/** Host names that never name a public host (RFC 6761, RFC 6762, RFC 8375 and common practice). */
const PRIVATE_SUFFIXES = [
  "localhost",
  "local",
  "internal",
  "home.arpa",
  "test",
  "invalid",
  "example",
  "lan",
  "intranet",
  "corp",
];

function v4Value(octets: readonly number[]): number {
  return (
    (((octets[0] ?? 0) << 24) |
      ((octets[1] ?? 0) << 16) |
      ((octets[2] ?? 0) << 8) |
      (octets[3] ?? 0)) >>>
    0
  );
}

function inV4Range(address: number, [a, b, c, d, prefix]: readonly number[]): boolean {
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - (prefix ?? 32))) >>> 0;
  return (address & mask) >>> 0 === (v4Value([a ?? 0, b ?? 0, c ?? 0, d ?? 0]) & mask) >>> 0;
}

/** Dotted-quad octets of a normalised IPv4 host (the URL parser normalises every IPv4 form). */
function parseV4(host: string): number[] | null {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return null;
  const octets = parts.map(Number);
  return octets.every((o) => o <= 255) ? octets : null;
}

function isLoopbackV4(octets: readonly number[]): boolean {
  return octets[0] === 127;
}

function isBlockedV4(octets: readonly number[]): boolean {
  const value = v4Value(octets);
  return BLOCKED_V4.some((range) => inV4Range(value, range));
}

/** The eight 16-bit groups of a bracket-less IPv6 address, or null. */
function parseV6(text: string): number[] | null {
  let head = text;
  let tail: number[] = [];
  // An embedded IPv4 tail (::ffff:1.2.3.4) is two groups.
  const v4 = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const octets = parseV4(v4[2] ?? "");
    if (!octets) return null;
    head = `${v4[1]}0:0`;
    tail = [((octets[0] ?? 0) << 8) | (octets[1] ?? 0), ((octets[2] ?? 0) << 8) | (octets[3] ?? 0)];
  }
  const halves = head.split("::");
  if (halves.length > 2) return null;
  const groups = (part: string) => (part === "" ? [] : part.split(":"));
  const left = groups(halves[0] ?? "");
  const right = halves.length === 2 ? groups(halves[1] ?? "") : [];
  const missing = 8 - left.length - right.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const all = [...left, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...right];
  if (!all.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return null;
  const out = all.map((g) => Number.parseInt(g, 16));
  if (v4) out.splice(6, 2, ...tail);
  return out;
}

/** The IPv4 address an IPv6 address carries (mapped, compatible or NAT64), if any. */
function embeddedV4(groups: readonly number[]): number[] | null {
  const g = (i: number) => groups[i] ?? 0;
  const zeroes = (from: number, to: number) => groups.slice(from, to).every((x) => x === 0);
  const mapped = zeroes(0, 5) && g(5) === 0xffff;
  const compatible = zeroes(0, 6);
  const nat64 = g(0) === 0x64 && g(1) === 0xff9b && zeroes(2, 6);
  if (!mapped && !compatible && !nat64) return null;
  return [g(6) >> 8, g(6) & 0xff, g(7) >> 8, g(7) & 0xff];
}

function isLoopbackV6(groups: readonly number[]): boolean {
  return groups.slice(0, 7).every((x) => x === 0) && groups[7] === 1;
}

function isBlockedV6(groups: readonly number[]): boolean {
  const first = groups[0] ?? 0;
  if (groups.every((x) => x === 0)) return true; // unspecified
  if (isLoopbackV6(groups)) return true;
  if ((first & 0xfe00) === 0xfc00) return true; // unique local fc00::/7
  if ((first & 0xffc0) === 0xfe80) return true; // link-local fe80::/10
  if ((first & 0xffc0) === 0xfec0) return true; // site-local (deprecated) fec0::/10
  if ((first & 0xff00) === 0xff00) return true; // multicast
  if (first === 0x2001 && groups[1] === 0x0db8) return true; // documentation
  if (first === 0x0100 && groups.slice(1, 4).every((x) => x === 0)) return true; // discard-only
  const v4 = embeddedV4(groups);
  return v4 !== null && isBlockedV4(v4);
}

/**
 * Why `text` may not receive webhooks, or null when it may: an absolute https URL (http only on
 * loopback, and only when the policy allows loopback), no credentials, no fragment, and a host
 * that is a public name or a public IP address.
 */
export function webhookUrlProblem(text: string, policy: UrlPolicy): string | null {
  if (text.length > MAX_URL_LENGTH) return `url must be at most ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "url must be an absolute https URL";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return "url must be an absolute https URL";
  }
  if (url.username !== "" || url.password !== "") {
    return "url must not carry credentials; authenticate deliveries by their signature";
  }
  if (url.hash !== "") return "url must not have a fragment";

  const host = url.hostname.toLowerCase();
  const bracketed = host.startsWith("[") && host.endsWith("]");
  const v6 = bracketed ? parseV6(host.slice(1, -1)) : null;
  const v4 = bracketed ? null : parseV4(host);
  const loopback =
    (v4 !== null && isLoopbackV4(v4)) || (v6 !== null && isLoopbackV6(v6)) || host === "localhost";
  if (loopback && policy.allowLoopback) return null;
  if (url.protocol !== "https:") return "url must use https";
  const privateHost = "url must name a public host, not a private, loopback or link-local address";
  if (bracketed) return v6 === null || isBlockedV6(v6) ? privateHost : null;
  if (v4 !== null) return isBlockedV4(v4) ? privateHost : null;
  // A name: it needs a dot, and no suffix reserved for private or special use.
  const name = host.replace(/\.$/, "");
  if (!name.includes(".")) return privateHost;
  if (PRIVATE_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`))) {
    return privateHost;
  }
  return null;
}
