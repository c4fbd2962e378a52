// Which URLs may receive webhooks, spelling by spelling, through POST /v2/webhook_endpoints:
// every form of an address that is not on the public internet is refused (RFC 6890 and the IANA
// special-purpose registries), including the IPv6 forms that carry an IPv4 address inside
// (mapped, compatible, translated, 6to4, NAT64, Teredo); public hosts are accepted however spelt,
// and stored as the URL parser writes them; a URL with a control character is refused.
import { beforeAll, describe, expect, it } from "vitest";
import { DELIVERY_DEFAULTS } from "../../src/webhook-endpoints";
import { DISABLE_SOON, DISABLED, FAILING } from "../../src/webhook-endpoints/endpoint-health";
import { healthNotice } from "../../src/webhook-endpoints/health-notice";
import { api, expectJson } from "../support/api";
import { versionsWith } from "../support/bundle-versions";
import { type Fixture, seedAccount } from "../support/fixtures";

/** A version whose every error is an ApiError envelope, naming the parameter at fault. */
const ENVELOPED = versionsWith("useApiErrorEnvelopeForAllErrors")[0] as string;

/** [url, what it is]: refused. */
const REFUSED: [string, string][] = [
  // IPv4, every spelling the URL parser normalises.
  ["https://127.0.0.1/", "loopback"],
  ["https://127.1/", "loopback, short form"],
  ["https://2130706433/", "loopback as one number"],
  ["https://0x7f000001/", "loopback in hex"],
  ["https://0177.0.0.1/", "loopback in octal"],
  ["https://0x7f.0.0.1/", "loopback, a hex octet"],
  ["https://10.0.0.1/", "private 10/8"],
  ["https://012.0.0.1/", "10.0.0.1 in octal"],
  ["https://167772161/", "10.0.0.1 as one number"],
  ["https://172.16.0.1/", "private 172.16/12"],
  ["https://172.31.255.255/", "private 172.16/12, last address"],
  ["https://192.168.1.1/", "private 192.168/16"],
  ["https://169.254.169.254/", "link-local, cloud metadata"],
  ["https://100.64.0.1/", "carrier-grade NAT"],
  ["https://0.0.0.0/", "this network"],
  ["https://192.0.0.8/", "IETF protocol assignments"],
  ["https://192.0.2.1/", "documentation"],
  ["https://198.18.0.1/", "benchmarking"],
  ["https://198.51.100.7/", "documentation"],
  ["https://203.0.113.9/", "documentation"],
  ["https://192.88.99.1/", "6to4 relay anycast"],
  ["https://224.0.0.1/", "multicast"],
  ["https://240.0.0.1/", "reserved"],
  ["https://255.255.255.255/", "broadcast"],
  // IPv6 of its own.
  ["https://[::1]/", "loopback"],
  ["https://[0:0:0:0:0:0:0:1]/", "loopback, in full"],
  ["https://[::]/", "unspecified"],
  ["https://[fc00::1]/", "unique local"],
  ["https://[fd12:3456::1]/", "unique local"],
  ["https://[fe80::1]/", "link-local"],
  ["https://[fec0::1]/", "site-local"],
  ["https://[ff02::1]/", "multicast"],
  ["https://[2001:db8::1]/", "documentation"],
  ["https://[3fff::1]/", "documentation (RFC 9637)"],
  ["https://[100::1]/", "discard-only"],
  ["https://[100:0:0:1::1]/", "dummy prefix"],
  ["https://[5f00::1]/", "SRv6 SIDs"],
  ["https://[2001:2::1]/", "benchmarking"],
  ["https://[2001:10::1]/", "ORCHID"],
  ["https://[2001:1::1]/", "IETF protocol assignments"],
  // IPv6 carrying a blocked IPv4.
  ["https://[::ffff:127.0.0.1]/", "IPv4-mapped loopback"],
  ["https://[::ffff:7f00:1]/", "IPv4-mapped loopback, hex"],
  ["https://[::ffff:10.0.0.1]/", "IPv4-mapped private"],
  ["https://[::ffff:a9fe:a9fe]/", "IPv4-mapped metadata"],
  ["https://[::ffff:0:a00:1]/", "IPv4-translated 10.0.0.1"],
  ["https://[::ffff:0:10.0.0.1]/", "IPv4-translated 10.0.0.1, dotted"],
  ["https://[::ffff:0:7f00:1]/", "IPv4-translated loopback"],
  ["https://[0:0:0:0:ffff:0:c0a8:101]/", "IPv4-translated 192.168.1.1, in full"],
  ["https://[::10.0.0.1]/", "IPv4-compatible private"],
  ["https://[::127.0.0.1]/", "IPv4-compatible loopback"],
  ["https://[2002:a00:1::]/", "6to4 of 10.0.0.1"],
  ["https://[2002:7f00:1::1]/", "6to4 of loopback"],
  ["https://[2002:a9fe:a9fe::]/", "6to4 of the metadata address"],
  ["https://[2002:c0a8:101:1::1]/", "6to4 of 192.168.1.1"],
  ["https://[64:ff9b::a00:1]/", "NAT64 of 10.0.0.1"],
  ["https://[64:ff9b::127.0.0.1]/", "NAT64 of loopback"],
  ["https://[64:ff9b::a9fe:a9fe]/", "NAT64 of the metadata address"],
  ["https://[64:ff9b:1::a00:1]/", "local-use NAT64 of 10.0.0.1"],
  ["https://[64:ff9b:1:a00:1::]/", "local-use NAT64, /48 embedding"],
  ["https://[64:ff9b:1::808:808]/", "local-use NAT64: never global, whatever it carries"],
  ["https://[2001:0:a00:1::]/", "Teredo via server 10.0.0.1"],
  ["https://[2001:0:808:808:0:0:f5ff:fffe]/", "Teredo client 10.0.0.1 (inverted)"],
  ["https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", "Teredo: never a webhook host"],
  // Names that never name a public host.
  ["https://localhost/", "localhost"],
  ["https://LOCALHOST./", "localhost, upper case and rooted"],
  ["https://api.localhost/", "under localhost"],
  ["https://printer.local/", "mDNS"],
  ["https://metadata.google.internal/", "internal"],
  ["https://router.home.arpa/", "home network"],
  ["https://hooks.test/", "reserved for tests"],
  ["https://hooks.example/", "reserved for examples"],
  ["https://hooks.invalid/", "reserved, invalid"],
  ["https://intranet/", "no dot"],
  // Not an https URL of a host.
  ["http://hooks.example.com/", "plain http"],
  ["ftp://hooks.example.com/", "another scheme"],
  ["https://user:pw@hooks.example.com/", "credentials"],
  ["https://hooks.example.com/#frag", "a fragment"],
  ["not a url", "not a URL"],
  ["/relative", "relative"],
  ["https://[::1/", "unclosed bracket"],
];

/** Accepted: public hosts, however spelt. */
const ACCEPTED: string[] = [
  "https://hooks.example.com/statements",
  "https://hooks.example.com:8443/x",
  "https://hooks.example.com./rooted",
  "https://xn--bcher-kva.example.com/",
  "https://8.8.8.8/",
  "https://1.1.1.1/hook",
  "https://0x8.0x8.0x8.0x8/",
  "https://134744072/",
  "https://11.0.0.1/",
  "https://172.32.0.1/",
  "https://100.128.0.1/",
  "https://169.255.0.1/",
  "https://192.169.0.1/",
  "https://223.255.255.254/",
  "https://[2606:4700:4700::1111]/",
  "https://[2001:4860:4860::8888]/",
  "https://[2001:200::1]/",
  "https://[::ffff:8.8.8.8]/",
  "https://[64:ff9b::808:808]/",
  "https://[64:ff9b::8.8.8.8]/",
  "https://[2002:808:808::1]/",
  "https://[2002:b00:1::]/",
];

function create(f: Fixture, url: string) {
  return api("/v2/webhook_endpoints", {
    key: f.key,
    method: "POST",
    body: { url },
    version: ENVELOPED,
  });
}

describe("webhook URL spellings", () => {
  // One partner for the refused spellings, another for the accepted ones: a refused spelling
  // wrongly accepted must not take the room of the accepted ones.
  let f: Fixture;
  let accepting: Fixture;
  beforeAll(async () => {
    [f, accepting] = [await seedAccount(), await seedAccount()];
  });

  it("has a table of at least 60 spellings, each listed once", () => {
    const urls = [...REFUSED.map(([url]) => url), ...ACCEPTED];
    expect(urls.length).toBeGreaterThanOrEqual(60);
    expect(new Set(urls).size).toBe(urls.length);
  });

  it.each(REFUSED)("refuses %s (%s)", async (url) => {
    const body = await expectJson<{ error: { type: string; param: string } }>(
      await create(f, url),
      400,
    );
    expect(body.error).toMatchObject({ type: "INVALID_REQUEST_ERROR", param: "url" });
  });

  it.each(ACCEPTED)("accepts %s", async (url) => {
    const created = await expectJson<{ webhook_endpoint_id: string; url: string }>(
      await create(accepting, url),
      201,
    );
    // Stored and answered as the URL parser writes it: what was checked is what is kept.
    expect(created.url).toBe(new URL(url).href);
    // Deleted again, so that the table stays under the product's endpoint limit.
    const deleted = await api(`/v2/webhook_endpoints/${created.webhook_endpoint_id}`, {
      key: accepting.key,
      method: "DELETE",
    });
    expect(deleted.status).toBe(204);
  });
});

/** Control characters the URL parser would drop, or encode, without a word. */
const CONTROLS: [string, string][] = [
  ["https://hooks.example.com/a\r\nBcc: someone@example.org", "CR LF"],
  ["https://hooks.example.com/a\nx", "LF"],
  ["https://hooks.example.com/\tstatements", "tab"],
  ["https://hooks.example.com/a\u0000", "NUL"],
  ["https://hooks.example.com/a\u0085", "next line (C1)"],
  ["https://hooks.example.com/a\u2028x", "line separator"],
];

describe("a webhook URL as stored", () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await seedAccount();
  });

  it.each(CONTROLS)("refuses %j (%s), on creation and on update", async (url) => {
    const refused = await expectJson<{ error: { type: string; param: string; message: string } }>(
      await create(f, url),
      400,
    );
    expect(refused.error).toMatchObject({ type: "INVALID_REQUEST_ERROR", param: "url" });
    expect(JSON.stringify(refused)).toContain("url must not contain control characters");
    const created = await expectJson<{ webhook_endpoint_id: string }>(
      await create(f, "https://hooks.example.com/fine"),
      201,
    );
    const id = created.webhook_endpoint_id;
    const update = await api(`/v2/webhook_endpoints/${id}`, {
      key: f.key,
      method: "POST",
      body: { url },
      version: ENVELOPED,
    });
    expect(await expectJson<{ error: { param: string } }>(update, 400)).toMatchObject({
      error: { param: "url" },
    });
    await api(`/v2/webhook_endpoints/${id}`, { key: f.key, method: "DELETE" });
  });

  it("is the normalised form, as created, updated and read", async () => {
    const created = await expectJson<{ webhook_endpoint_id: string; url: string }>(
      await create(f, "HTTPS://Hooks.Example.COM:443/a/../statements?q=a b"),
      201,
    );
    expect(created.url).toBe("https://hooks.example.com/statements?q=a%20b");
    const id = created.webhook_endpoint_id;
    const updated = await api(`/v2/webhook_endpoints/${id}`, {
      key: f.key,
      method: "POST",
      body: { url: "https://HOOKS.example.com./x/./y" },
    });
    expect((await expectJson<{ url: string }>(updated, 200)).url).toBe(
      "https://hooks.example.com./x/y",
    );
    const read = await api(`/v2/webhook_endpoints/${id}`, { key: f.key });
    expect((await expectJson<{ url: string }>(read, 200)).url).toBe(
      "https://hooks.example.com./x/y",
    );
    await api(`/v2/webhook_endpoints/${id}`, { key: f.key, method: "DELETE" });
  });

  it("reaches an Admin's health mail on one line, even one stored with a line break", () => {
    const change = {
      endpointId: "we_legacy",
      partnerId: "p",
      environment: "production",
      url: "https://hooks.example.com/a\r\nBcc: someone@example.org\r\n\r\nForged body",
      apiOrigin: "https://api.example.com",
      failingSince: "2026-01-01T00:00:00.000Z",
      failureStreak: 3,
      disabledAt: "2026-01-04T00:00:00.000Z",
    };
    for (const stage of [FAILING, DISABLE_SOON, DISABLED] as const) {
      const { subject, text } = healthNotice({ ...change, stage }, DELIVERY_DEFAULTS);
      expect(subject).not.toMatch(/[\r\n]/);
      expect(text).not.toContain("\r");
      expect(text.split("\n").some((line) => /^(Bcc:|Forged)/.test(line))).toBe(false);
    }
  });
});
