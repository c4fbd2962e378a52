// Moving a partner to another shard through the operator API, to the end: switched, then its old
// copy retired (the retirement brought forward).
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { expectJson, operator } from "./api";

/** Calls the partner's move until it has switched to `to`, then retires the old copy. */
export async function moveToTheEnd(partnerId: string, to: string): Promise<void> {
  const path = `/partners/${partnerId}/move`;
  let phase = "";
  for (let calls = 0; phase !== "switched" && calls < 50; calls++) {
    const res = await operator("POST", path, { shard: to, max_rows: 500 });
    phase = (await expectJson<{ phase: string }>(res, 202)).phase;
  }
  expect(phase).toBe("switched");
  await env.DIRECTORY.prepare(
    "UPDATE partner_moves SET retire_after = ? WHERE partner_id = ? AND finished_at IS NULL",
  )
    .bind(new Date(Date.now() - 1000).toISOString(), partnerId)
    .run();
  const done = await expectJson<{ phase: string }>(
    await operator("POST", path, { shard: to }),
    200,
  );
  expect(done.phase).toBe("done");
}
