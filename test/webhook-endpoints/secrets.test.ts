// Webhook endpoint secrets at rest: stored sealed under a key derived from SIGNING_SECRET, never
// as issued; a secret stored before sealing keeps verifying and is sealed by the cron; during a
// SIGNING_SECRET rotation the previous secret still opens what it sealed, and the cron re-seals
// it under the new one, so deleting the previous secret afterwards loses nothing.
import { createMessageBatch, createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundle } from "../../src/bundle";
import worker from "../../src/index";
import { webhookConsumer } from "../../src/webhook-deliveries/deliver";
import type { DeliveryRef } from "../../src/webhook-deliveries/event-writes";
import { api, expectJson } from "../support/api";
import { type Fixture, seedAccount, uniqueId } from "../support/fixtures";
import { firstOnAnyShard, onEveryShard, shardDatabase, shardOf } from "../support/shards";
import { RECEIVER, type Receiver, startReceiver } from "../support/webhook-receiver";

let receiver: Receiver;
beforeAll(() => {
  receiver = startReceiver();
});
afterAll(() => receiver.restore());

const ROTATED_SECRET = "rotated-signing-secret-0123456789abcdefghijklmn";

interface StoredSecrets {
  secret: string;
  secret_key_id: string | null;
  previous_secret: string | null;
  previous_secret_key_id: string | null;
}

function stored(endpointId: string): Promise<StoredSecrets | null> {
  return firstOnAnyShard<StoredSecrets>(
    `SELECT secret, secret_key_id, previous_secret, previous_secret_key_id
       FROM webhook_endpoints WHERE endpoint_id = ?`,
    endpointId,
  );
}

/** A partner with one event, and an endpoint made after it (so no queue message races ours). */
async function endpointWithEvent(): Promise<{
  f: Fixture;
  eventId: string;
  endpointId: string;
  secret: string;
  path: string;
}> {
  const f = await seedAccount({ statements: 1 });
  const events = await expectJson<{ data: { event_id: string }[] }>(
    await api("/v2/events", { key: f.key }),
    200,
  );
  const path = `/ok/${uniqueId("sealed")}`;
  const endpoint = await expectJson<{ webhook_endpoint_id: string; secret: string }>(
    await api("/v2/webhook_endpoints", {
      key: f.key,
      method: "POST",
      body: { url: `${RECEIVER}${path}` },
    }),
    201,
  );
  return {
    f,
    eventId: events.data[0]?.event_id as string,
    endpointId: endpoint.webhook_endpoint_id,
    secret: endpoint.secret,
    path,
  };
}

/**
 * Delivers the event to the endpoint now, through the queue consumer running with `bindings`;
 * answers what the receiver got.
 */
async function deliverNow(
  target: { f: Fixture; eventId: string; endpointId: string; path: string },
  bindings: Record<string, unknown> = {},
) {
  const now = new Date().toISOString();
  const shard = await shardOf(target.f.partnerId);
  await shardDatabase(shard)
    .prepare(
      `INSERT INTO webhook_deliveries (event_id, endpoint_id, status, generation, attempts,
       cycle_started_at, next_attempt_at) VALUES (?, ?, 'pending', 0, 0, ?, ?)
     ON CONFLICT (event_id, endpoint_id) DO UPDATE SET status = 'pending', generation = 0,
       next_attempt_at = excluded.next_attempt_at, lease_until = NULL`,
    )
    .bind(target.eventId, target.endpointId, now, now)
    .run();
  const before = receiver.received.filter((r) => r.path === target.path).length;
  const ref: DeliveryRef = {
    event_id: target.eventId,
    endpoint_id: target.endpointId,
    generation: 0,
    partner_id: target.f.partnerId,
    shard,
  };
  const batch = createMessageBatch("webhook-deliveries", [
    { id: uniqueId("m"), timestamp: new Date(), attempts: 1, body: ref },
  ]);
  await webhookConsumer(bundle)(batch as MessageBatch<DeliveryRef>, { ...env, ...bindings });
  const got = await receiver.waitFor(target.path, before + 1, 5_000);
  expect(got.length, "a delivery reached the receiver").toBe(before + 1);
  return got.at(-1) as { body: string; headers: Record<string, string> };
}

function runCron(bindings: Record<string, unknown> = {}) {
  return worker.scheduled(
    createScheduledController({ scheduledTime: new Date(), cron: "*/5 * * * *" }),
    { ...env, ...bindings },
  );
}

describe("webhook endpoint secrets at rest", () => {
  it("are stored sealed, never as issued, and still sign deliveries", async () => {
    const target = await endpointWithEvent();
    const row = await stored(target.endpointId);
    expect(row?.secret).not.toBe(target.secret);
    expect(row?.secret).not.toContain(target.secret.slice("whsec_".length, 20));
    expect(row?.secret_key_id).toMatch(/^[A-Za-z0-9_-]{8}$/);
    const first = await deliverNow(target);
    new Webhook(target.secret).verify(first.body, first.headers);

    // A rolled secret is sealed too; the previous one keeps signing beside it.
    const rolled = await expectJson<{ secret: string }>(
      await api(`/v2/webhook_endpoints/${target.endpointId}/roll_secret`, {
        key: target.f.key,
        method: "POST",
      }),
      200,
    );
    const after = await stored(target.endpointId);
    expect(after?.secret).not.toBe(rolled.secret);
    expect(after?.previous_secret).toBe(row?.secret);
    expect(after?.previous_secret_key_id).toBe(row?.secret_key_id);
    const second = await deliverNow(target);
    new Webhook(rolled.secret).verify(second.body, second.headers);
    new Webhook(target.secret).verify(second.body, second.headers);
  });

  it("keep a secret stored before sealing verifying, and the cron seals it", async () => {
    const target = await endpointWithEvent();
    // As stored before sealing existed: the plaintext, with no key id.
    await onEveryShard(
      "UPDATE webhook_endpoints SET secret = ?, secret_key_id = NULL WHERE endpoint_id = ?",
      target.secret,
      target.endpointId,
    );
    const before = await deliverNow(target);
    new Webhook(target.secret).verify(before.body, before.headers);
    await runCron();
    const row = await stored(target.endpointId);
    expect(row?.secret).not.toBe(target.secret);
    expect(row?.secret_key_id).toMatch(/^[A-Za-z0-9_-]{8}$/);
    const after = await deliverNow(target);
    new Webhook(target.secret).verify(after.body, after.headers);
  });

  it("stay readable through a SIGNING_SECRET rotation, re-sealed under the new secret", async () => {
    const target = await endpointWithEvent();
    const original = await stored(target.endpointId);
    const rotating = {
      SIGNING_SECRET: ROTATED_SECRET,
      SIGNING_SECRET_PREVIOUS: env.SIGNING_SECRET,
    };
    const during = await deliverNow(target, rotating);
    new Webhook(target.secret).verify(during.body, during.headers);
    await runCron(rotating);
    const resealed = await stored(target.endpointId);
    expect(resealed?.secret_key_id).not.toBe(original?.secret_key_id);
    expect(resealed?.secret).not.toBe(original?.secret);
    // The previous secret deleted: the endpoint's secret still opens.
    const after = await deliverNow(target, {
      SIGNING_SECRET: ROTATED_SECRET,
      SIGNING_SECRET_PREVIOUS: undefined,
    });
    new Webhook(target.secret).verify(after.body, after.headers);
  });
});
