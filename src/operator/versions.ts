// /operator/v1 reads about API versions: requests per version over the last days, and the
// partners whose saved version is deprecated (who would break at its sunset). Both read every
// shard (a fan-out) and answer whole, or 503 when a shard cannot be read.
import { Hono } from "hono";
import type { AppEnv } from "../app/context";
import { invalidRequest } from "../app/errors";
import { acrossShards } from "../db/shards";
import {
  partnersSavedOn,
  readVersionUsage,
  USAGE_DAYS_KEPT,
  type VersionUsageRow,
} from "../db/version-usage";
import type { Environment } from "../domain/environment";

/** `?days=N`, 1 to the days kept; 30 by default. */
function parseDays(values: string[] | undefined): number {
  if (values === undefined) return 30;
  const [text = ""] = values;
  const days = Number(text);
  if (values.length !== 1 || !/^\d+$/.test(text) || days < 1 || days > USAGE_DAYS_KEPT) {
    throw invalidRequest([`days must be a single integer from 1 to ${USAGE_DAYS_KEPT}`], "days");
  }
  return days;
}

export const operatorVersionRoutes = new Hono<AppEnv>()
  .get("/operator/v1/version-usage", async (c) => {
    const days = parseDays(c.req.queries("days"));
    const today = c.get("now")();
    // Today counts as one of the days.
    const since = new Date(today.getTime() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
    // A partner's counts land on the shard it lived on when they were counted: sum them all.
    const perShard = await acrossShards(c.get("shards"), (db) => readVersionUsage(db, since));
    const summed = new Map<string, VersionUsageRow>();
    for (const row of perShard.flatMap((s) => s.result)) {
      const key = `${row.version} ${row.partnerId} ${row.environment}`;
      const seen = summed.get(key);
      if (seen) seen.requests += row.requests;
      else summed.set(key, { ...row });
    }
    const byVersion = new Map<string, VersionUsageRow[]>();
    for (const row of summed.values())
      byVersion.set(row.version, [...(byVersion.get(row.version) ?? []), row]);
    const bundle = c.get("bundle");
    // The bundle's versions newest first, then any no longer in it that still have counts.
    const versions = [
      ...bundle.versions.map((v) => v.id),
      ...[...byVersion.keys()].filter((v) => !bundle.versionOf(v)).sort(),
    ];
    return c.json({
      since,
      days,
      versions: versions.map((version) => {
        const entry = bundle.versionOf(version);
        const partners = (byVersion.get(version) ?? [])
          .map((r) => ({
            partner_id: r.partnerId,
            environment: r.environment,
            requests: r.requests,
          }))
          .sort((a, b) => b.requests - a.requests || a.partner_id.localeCompare(b.partner_id));
        return {
          version,
          in_bundle: entry !== undefined,
          deprecated: entry?.deprecated?.date ?? null,
          sunset: entry?.deprecated?.sunset ?? null,
          requests: partners.reduce((total, p) => total + p.requests, 0),
          partners,
        };
      }),
    });
  })

  .get("/operator/v1/deprecated-saved-versions", async (c) => {
    const bundle = c.get("bundle");
    const deprecated = bundle.versions.filter((v) => v.deprecated);
    const versions = deprecated.map((v) => v.id);
    const perShard = await acrossShards(c.get("shards"), (db) => partnersSavedOn(db, versions));
    const rows = perShard
      .flatMap((s) => s.result)
      .sort((a, b) => a.partnerId.localeCompare(b.partnerId));
    const data = rows.flatMap((row) =>
      (["sandbox", "production"] as const satisfies readonly Environment[]).flatMap(
        (environment) => {
          const version = row[environment];
          const entry = deprecated.find((v) => v.id === version);
          if (!entry?.deprecated) return [];
          return [
            {
              partner_id: row.partnerId,
              environment,
              version,
              deprecated: entry.deprecated.date,
              sunset: entry.deprecated.sunset ?? null,
            },
          ];
        },
      ),
    );
    return c.json({ data });
  });
