// The delivery's maintenance steps, on every shard: re-send deliveries whose queue message was
// lost, and purge events past their 30 days with their deliveries and attempts.
import {
  drain,
  type MaintenanceStep,
  PER_BATCH,
  resendOverdue,
  sweepGraceMs,
} from "../app/maintenance";
import { EVENT_RETENTION_MS } from "../domain/event";
import { overdueDeliveries, purgeExpiredEvents } from "./delivery-work";

export const deliveriesResent: MaintenanceStep = {
  name: "resent",
  run: ({ env, db, shard, now }) =>
    resendOverdue(env.WEBHOOK_DELIVERIES, (limit) =>
      overdueDeliveries(db, shard, now, sweepGraceMs(env), limit),
    ),
};

export const eventsPurged: MaintenanceStep = {
  name: "events_purged",
  run: ({ db, now }) => {
    const before = new Date(now.getTime() - EVENT_RETENTION_MS).toISOString();
    return drain(() => purgeExpiredEvents(db, before, PER_BATCH));
  },
};
