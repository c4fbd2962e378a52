// The dead letters' maintenance step, on every shard: those nobody re-drove or discarded leave
// after 30 days.
import { drain, type MaintenanceStep, PER_BATCH } from "../app/maintenance";
import { toBase62 } from "../domain/encoding";
import { DEAD_LETTER_RETENTION_DAYS, purgeExpiredDeadLetters } from "./store";

export const deadLettersPurged: MaintenanceStep = {
  name: "dead_letters_purged",
  run: ({ db, now }) => {
    const before = now.getTime() - DEAD_LETTER_RETENTION_DAYS * 86_400_000;
    const beforeId = `dl_${toBase62(Math.max(0, before), 9)}`;
    return drain(() => purgeExpiredDeadLetters(db, beforeId, PER_BATCH));
  },
};
