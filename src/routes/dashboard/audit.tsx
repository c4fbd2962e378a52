// /dashboard/audit (Admins): the partner's audit log, newest first, paged by keyset.
import { Hono } from "hono";
import type { AppEnv } from "../../app/context";
import { authorize } from "../../app/dashboard/authorize";
import { ApiError } from "../../app/errors";
import { readAuditPage } from "../../db/audit";
import { auditSequence } from "../../domain/audit";
import { AuditPage } from "./views/audit";

const PAGE_SIZE = 50;

export const auditPageRoutes = new Hono<AppEnv>().get("/dashboard/audit", async (c) => {
  authorize(c, "audit.view", "production");
  const { user } = c.get("session");
  const before = c.req.query("before");
  const sequence = before === undefined ? null : auditSequence(before);
  if (before !== undefined && sequence === null) {
    throw new ApiError("NOT_FOUND_ERROR", "There is no such page of the audit log.");
  }
  const page = await readAuditPage(c.get("db"), user.partnerId, sequence, PAGE_SIZE);
  const last = page.entries.at(-1);
  return c.html(
    <AuditPage
      session={c.get("session")}
      entries={page.entries}
      olderBefore={page.hasMore && last ? last.id : null}
    />,
  );
});
