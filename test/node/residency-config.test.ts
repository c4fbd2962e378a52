// The deployment's residency configuration holds together: wrangler.toml declares the jurisdiction
// of every shard it binds, binds a documents bucket and a request-log queue in each jurisdiction
// a shard has, and the deploy recipes (docs/operations.md, docs/residency.md) create every
// database, bucket and queue with the jurisdiction wrangler.toml gives it.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { experimental_readRawConfig } from "wrangler";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

/** What this test reads of wrangler.toml. */
interface Config {
  vars?: Record<string, unknown>;
  d1_databases?: { binding: string; database_name?: string }[];
  r2_buckets?: { binding: string; bucket_name?: string; jurisdiction?: string }[];
  queues?: { producers?: { binding: string; queue: string }[]; consumers?: { queue: string }[] };
}
const config = experimental_readRawConfig({ config: path.join(ROOT, "wrangler.toml") })
  .rawConfig as Config;
const JURISDICTIONS = ["none", "eu", "us", "fedramp"];

const declared = (config.vars?.SHARD_JURISDICTIONS ?? {}) as Record<string, string>;
const shards = (config.d1_databases ?? []).filter((d) => /^DB_[0-9A-Za-z]{2}$/.test(d.binding));
const jurisdictionOf = (binding: string) => declared[binding.slice(3)] ?? "none";
const used = [...new Set(shards.map((s) => jurisdictionOf(s.binding)))].filter((j) => j !== "none");
const suffix = (j: string) => `_${j.toUpperCase()}`;

/** The commands of a guide's deploy recipe: its `npx wrangler …` lines, comments cut. */
function recipe(file: string): string[] {
  const text = readFileSync(path.join(ROOT, "docs", file), "utf8");
  return [...text.matchAll(/^npx wrangler .*$/gm)].map((m) => m[0].replace(/\s+#.*$/, "").trim());
}

/** The recipe's command creating `kind` `name`, if any. */
const creating = (commands: readonly string[], kind: string, name: string) =>
  commands.find((c) => new RegExp(`^npx wrangler ${kind} create ${name}(\\s|$)`).test(c));

describe("wrangler.toml's jurisdictions", () => {
  it("declares a known jurisdiction for every shard, and names no shard it lacks", () => {
    expect(shards.length).toBeGreaterThanOrEqual(3);
    for (const shard of shards) {
      expect(JURISDICTIONS, shard.binding).toContain(declared[shard.binding.slice(3)]);
    }
    for (const code of Object.keys(declared)) {
      expect(shards.map((s) => s.binding)).toContain(`DB_${code}`);
    }
    // Locally: DB_00 and DB_01 without a jurisdiction, DB_02 in eu.
    expect(declared).toMatchObject({ "00": "none", "01": "none", "02": "eu" });
  });

  it("binds a documents bucket and a request-log queue in every jurisdiction a shard has", () => {
    expect(used).toContain("eu");
    const buckets = config.r2_buckets ?? [];
    const producers = config.queues?.producers ?? [];
    const consumers = (config.queues?.consumers ?? []).map((c) => c.queue);
    expect(buckets.find((b) => b.binding === "PDFS")?.jurisdiction).toBeUndefined();
    for (const j of used) {
      expect(buckets.find((b) => b.binding === `PDFS${suffix(j)}`)?.jurisdiction, j).toBe(j);
      const queue = producers.find((p) => p.binding === `REQUEST_LOGS${suffix(j)}`)?.queue;
      expect(queue, j).toMatch(/^request-logs/);
      expect(consumers).toContain(queue);
    }
  });
});

describe("the deploy recipes", () => {
  const operations = recipe("operations.md");
  const residency = recipe("residency.md");

  it("create each shard with the jurisdiction wrangler.toml declares for it", () => {
    for (const shard of shards) {
      const j = jurisdictionOf(shard.binding);
      const command = creating(operations, "d1", shard.database_name as string);
      expect(command, shard.binding).toBeDefined();
      if (j === "none") expect(command).not.toContain("--jurisdiction");
      else expect(command).toContain(`--jurisdiction ${j}`);
    }
  });

  it("create each bucket and request-log queue in its binding's jurisdiction", () => {
    for (const bucket of config.r2_buckets ?? []) {
      const command = creating(operations, "r2 bucket", bucket.bucket_name as string);
      expect(command, bucket.binding).toBeDefined();
      if (bucket.jurisdiction) expect(command).toContain(`--jurisdiction ${bucket.jurisdiction}`);
      else expect(command).not.toContain("--jurisdiction");
    }
    for (const producer of config.queues?.producers ?? []) {
      const command = creating(operations, "queues", producer.queue);
      expect(command, producer.binding).toBeDefined();
      const j = /^REQUEST_LOGS_([A-Z]+)$/.exec(producer.binding)?.[1]?.toLowerCase();
      if (j) expect(command).toContain(`--jurisdiction ${j}`);
      else expect(command).not.toContain("--jurisdiction");
    }
    expect(operations).toContain("npx wrangler secret put DIRECTORY_SECRET");
  });

  it("say the same in the residency guide as in the operations guide", () => {
    expect(residency.length).toBeGreaterThan(0);
    for (const command of residency) expect(operations).toContain(command);
  });
});
