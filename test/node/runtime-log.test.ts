// What npm start shows of wrangler's output (scripts/runtime-log.ts): workerd's own report of a
// fetch whose DNS lookup or TLS handshake failed is dropped, as printed here on a real run;
// everything else passes, the Worker's one line per failed attempt included.
import { describe, expect, it } from "vitest";
import { runtimeLogFilter } from "../../scripts/runtime-log.ts";

const WORKERD = "/repo/node_modules/@cloudflare/workerd-linux-64/bin/workerd";
/** workerd's report as wrangler printed it, colours and blank lines included. */
function report(cause: string): string[] {
  return [
    `\x1b[31m✘ \x1b[41;31m[\x1b[41;97mERROR\x1b[41;31m]\x1b[0m \x1b[1me = rust/worker/ffi.rs:104: failed: ${cause}\x1b[0m`,
    "",
    `  stack: ${WORKERD}@3d4d979 ${WORKERD}@2b5edc0 ${WORKERD}@3fe4230; sentryErrorContext = jsgInternalError; wdErrId = rfl0iqidvtlv0317tkfibltr`,
    "",
    "",
  ];
}
const ATTEMPT =
  '\x1b[33m▲ \x1b[43;33m[\x1b[43;30mWARNING\x1b[43;33m]\x1b[0m \x1b[1m{"webhook_attempt":"failed","webhook_endpoint_id":"we_1","reason":"DNS lookup or TLS handshake failed for hooks.example.com"}\x1b[0m';
const QUEUE = "[wrangler:info] QUEUE webhook-deliveries 0/1 (21ms)";

const shown = (lines: string[]) => lines.filter(runtimeLogFilter());

describe("the local run's log", () => {
  it.each([
    "failed to lookup address information: Name or service not known",
    "TLS handshake failed: invalid peer certificate: Other(OtherError(CaUsedAsEndEntity))",
    "TLS handshake failed: received corrupt message of type InvalidContentType",
  ])("drops workerd's report of a fetch that %s", (cause) => {
    expect(shown([QUEUE, ...report(cause), ATTEMPT, "", QUEUE])).toEqual([
      QUEUE,
      ATTEMPT,
      "",
      QUEUE,
    ]);
  });

  it("keeps any other error the runtime reports", () => {
    const other = [
      "\x1b[31m✘ [ERROR]\x1b[0m e = workerd/io/io-context.c++:123: failed: something else",
      "",
      "  stack: …",
    ];
    expect(shown(other)).toEqual(other);
  });

  it("stops dropping after a few lines when a report does not end as expected", () => {
    const [first = ""] = report("failed to lookup address information: Name or service not known");
    const after = Array.from({ length: 12 }, (_, i) => `line ${i}`);
    expect(shown([first, ...after])).toEqual(after.slice(8));
  });
});
