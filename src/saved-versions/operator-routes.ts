// The operator's side of API versions: a partner's saved version set for an environment
// (PUT /operator/v1/partners/{partner_id}/saved-versions/{environment}), and two reads that say
// who a version's sunset would break: requests per version over the last days
// (/operator/v1/version-usage), and the partners whose saved version is deprecated
// (/operator/v1/deprecated-saved-versions). Both reads ask every shard (a fan-out) and answer
// whole, or 503 when a shard cannot be read.
import { Hono } from "hono";
import * as z from "zod";
import { operatorActor } from "../app/actor";
import type { AppEnv } from "../app/context";
import { ApiError, invalidRequest } from "../app/errors";
import { partnerNotFound, requirePartner, validationError } from "../app/operator-requests";
import { readJsonBody } from "../app/read-body";
import { acrossShards } from "../db/shards";
import {
  partnersSavedOn,
  readVersionUsage,
  USAGE_DAYS_KEPT,
  type VersionUsageRow,
} from "../db/version-usage";
import type { Environment } from "../domain/environment";
import { changeSavedVersion, readSavedVersion } from "./saved-version-store";

const EnvironmentParam = z.enum(["sandbox", "production"]);
const SavedVersion = z.strictObject({ version: z.string() });

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

export const savedVersionOperatorRoutes = new Hono<AppEnv>()
  .put("/operator/v1/partners/:partner_id/saved-versions/:environment", async (c) => {
    const partnerId = c.req.param("partner_id");
    const environment = EnvironmentParam.safeParse(c.req.param("environment"));
    if (!environment.success) {
      throw invalidRequest(['environment must be "sandbox" or "production"']);
    }
    const body = await readJsonBody(c.req.raw);
    const parsed = SavedVersion.safeParse(body);
    if (!parsed.success) throw validationError(parsed.error, body);
    const { version } = parsed.data;
    await requirePartner(c, partnerId, "write");
    const bundle = c.get("bundle");
    if (!bundle.isSupported(version, environment.data)) {
      throw invalidRequest([
        `version ${JSON.stringify(version.slice(0, 64))} is not offered in ${environment.data}; ` +
          `supported: ${bundle.supported(environment.data).join(", ")}`,
      ]);
    }
    const state = await readSavedVersion(c.get("db"), partnerId, environment.data, 0);
    if (!state) throw partnerNotFound(partnerId);
    if (state.saved !== version) {
      const changed = await changeSavedVersion(c.get("db"), {
        partnerId,
        environment: environment.data,
        from: state.saved,
        to: version,
        rollbackOf: null,
        actor: operatorActor(c),
        now: c.get("now")(),
      });
      if (!changed) {
        throw new ApiError("CONFLICT_ERROR", "The saved version changed meanwhile; retry.");
      }
    }
    return c.json({ partner_id: partnerId, environment: environment.data, version });
  })

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
