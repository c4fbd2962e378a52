// The statement documents' maintenance step, on every shard: re-send renders whose queue message
// was lost.
import { type MaintenanceStep, resendOverdue, sweepGraceMs } from "../app/maintenance";
import { overdueRenders } from "./render-store";

export const rendersResent: MaintenanceStep = {
  name: "renders_resent",
  run: ({ env, db, shard, now }) =>
    resendOverdue(env.STATEMENT_RENDERS, (limit) =>
      overdueRenders(db, shard, now, sweepGraceMs(env), limit),
    ),
};
