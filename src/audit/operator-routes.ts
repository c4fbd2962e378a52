// GET /operator/v1/partners/{partner_id}/audit: the partner's audit log, newest first, as the
// dashboard's Audit page shows it; `starting_after` is an entry id (`audit_…`).
import { Hono } from "hono";
import type { AppEnv } from "../app/context";
import { invalidRequest } from "../app/errors";
import { requirePartner } from "../app/operator-requests";
import { idPageQuery } from "../app/query";
import { readAuditPage } from "../db/audit";
import { type AuditEntry, auditSequence } from "../domain/audit";

function auditJson(entry: AuditEntry) {
  return {
    id: entry.id,
    occurred_at: entry.occurredAt,
    actor: entry.actor,
    action: entry.action,
    environment: entry.environment,
    target: entry.target,
    details: entry.details,
    ip: entry.ip,
  };
}

export const auditOperatorRoutes = new Hono<AppEnv>().get(
  "/operator/v1/partners/:partner_id/audit",
  async (c) => {
    const partnerId = c.req.param("partner_id");
    const { limit, after } = idPageQuery.parse((name) => c.req.queries(name));
    const before = after === null ? null : auditSequence(after);
    if (after !== null && before === null) {
      throw invalidRequest(["starting_after must be an audit entry id"], "starting_after");
    }
    await requirePartner(c, partnerId);
    const page = await readAuditPage(c.get("db"), partnerId, before, limit);
    return c.json({ data: page.entries.map(auditJson), has_more: page.hasMore });
  },
);
