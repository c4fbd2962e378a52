// Which URLs may receive webhooks: https to public hosts only, so an endpoint can never make the
// service call into a private network, a cloud metadata address or itself. Literal addresses are
// checked here, every IPv6 form that carries an IPv4 address included; a name of the Worker's own
// zone goes out through the zone's front door, never to its origin (`global_fetch_strictly_public`).

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

/** Whether `groups` lies in the `length`-bit prefix `prefix` (both as eight 16-bit groups). */
function inV6Prefix(groups: readonly number[], prefix: readonly number[], length: number): boolean {
  for (let i = 0; i * 16 < length; i++) {
    const bits = Math.min(16, length - i * 16);
    const mask = (0xffff << (16 - bits)) & 0xffff;
    if (((groups[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

/** An IPv6 prefix written as text, with its length: `["fc00::", 7]`. */
function v6Prefixes(list: readonly [string, number][]): [number[], number][] {
  return list.map(([text, length]) => [parseV6(text) ?? [], length]);
}

/**
 * IPv6 ranges that are not the public internet (IANA IPv6 special-purpose registry, RFC 6890),
 * whatever they carry. 2001::/23 holds Teredo (2001::/32), which tunnels to an IPv4 address of
 * either end: no webhook host lives there.
 */
const BLOCKED_V6 = v6Prefixes([
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["100::", 64], // discard-only
  ["100:0:0:1::", 64], // dummy prefix
  ["64:ff9b:1::", 48], // local-use IPv4/IPv6 translation: a private network's NAT64
  ["2001::", 23], // IETF protocol assignments (Teredo, benchmarking, ORCHID…)
  ["2001:db8::", 32], // documentation
  ["3fff::", 20], // documentation
  ["5f00::", 16], // segment routing (SRv6) identifiers
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
]);

/** Where an IPv6 address may carry an IPv4 address: the prefix, and the group it starts at. */
const CARRIES_V4: [number[], number, number][] = [
  ...v6Prefixes([
    ["::ffff:0:0", 96], // IPv4-mapped
    ["::ffff:0:0:0", 96], // IPv4-translated
    ["::", 96], // IPv4-compatible (deprecated)
    ["64:ff9b::", 96], // NAT64, well-known prefix
  ]).map(([prefix, length]): [number[], number, number] => [prefix, length, 6]),
  [parseV6("2002::") ?? [], 16, 1], // 6to4: 2002:AABB:CCDD::/48 carries AA.BB.CC.DD
];

/** The IPv4 address an IPv6 address carries (mapped, translated, compatible, NAT64, 6to4). */
function embeddedV4(groups: readonly number[]): number[] | null {
  for (const [prefix, length, at] of CARRIES_V4) {
    if (!inV6Prefix(groups, prefix, length)) continue;
    const [high = 0, low = 0] = groups.slice(at, at + 2);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff];
  }
  return null;
}

function isLoopbackV6(groups: readonly number[]): boolean {
  return groups.slice(0, 7).every((x) => x === 0) && groups[7] === 1;
}

function isBlockedV6(groups: readonly number[]): boolean {
  if (BLOCKED_V6.some(([prefix, length]) => inV6Prefix(groups, prefix, length))) return true;
  const v4 = embeddedV4(groups);
  return v4 !== null && isBlockedV4(v4);
}

/**
 * Control characters (C0, DEL, C1) and the Unicode line and paragraph separators: the URL parser
 * drops a tab, CR or LF without a word, so a URL carrying one would pass the rules below while its
 * text could start a new line wherever it is written (a mail's subject, a log line).
 */
function isControl(char: string): boolean {
  const code = char.charCodeAt(0);
  return code <= 0x1f || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;
}

/** `text` without control characters: how a URL stored before they were refused is written. */
export function withoutControls(text: string): string {
  return [...text].filter((char) => !isControl(char)).join("");
}

/**
 * The URL as it is stored and shown: the parser's own serialisation of `text` (so what is
 * checked is what is kept), or why `text` may not receive webhooks (see `webhookUrlProblem`).
 */
export function normaliseWebhookUrl(
  text: string,
  policy: UrlPolicy,
): { url: string; problem?: undefined } | { url?: undefined; problem: string } {
  if ([...text].some(isControl)) return { problem: "url must not contain control characters" };
  const problem = webhookUrlProblem(text, policy);
  if (problem) return { problem };
  const url = new URL(text).href;
  return url.length > MAX_URL_LENGTH
    ? { problem: `url must be at most ${MAX_URL_LENGTH} characters` }
    : { url };
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
