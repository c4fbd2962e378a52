// Every version's OpenAPI document, for each environment's keys, as a local run serves it, lints
// clean with Redocly's recommended ruleset: no error and no warning.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalService, startLocalService } from "../support/node/local-service";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const REDOCLY = path.join(ROOT, "node_modules", ".bin", "redocly");

let service: LocalService;
let dir: string;
let files: string[];

beforeAll(async () => {
  service = await startLocalService();
  dir = mkdtempSync(path.join(os.tmpdir(), "openapi-"));
  const changelog = (await (await fetch(`${service.base}/changelog`)).json()) as {
    versions: { version: string; reference: string; environments: string[] }[];
  };
  files = [];
  for (const { version, reference, environments } of changelog.versions) {
    for (const environment of environments) {
      const file = path.join(dir, `${version}.${environment}.json`);
      const query = environment === "sandbox" ? "" : `?environment=${environment}`;
      writeFileSync(file, await (await fetch(`${service.base}${reference}${query}`)).text());
      files.push(file);
    }
  }
});

afterAll(async () => {
  await service?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the OpenAPI documents", () => {
  it("lint clean with Redocly's recommended ruleset", () => {
    expect(files.length).toBeGreaterThan(1);
    const env = {
      ...process.env,
      REDOCLY_TELEMETRY: "off",
      REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
    };
    for (const file of files) {
      const run = spawnSync(REDOCLY, ["lint", "--extends=recommended", "--format=json", file], {
        cwd: dir,
        encoding: "utf8",
        env,
      });
      const report = JSON.parse(run.stdout) as {
        totals: { errors: number; warnings: number; ignored: number };
        problems: {
          ruleId: string;
          severity: string;
          message: string;
          location: { pointer?: string }[];
        }[];
      };
      const problems = report.problems.map(
        (p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? "?"}`,
      );
      const version = path.basename(file);
      expect(problems, version).toEqual([]);
      expect(report.totals, version).toEqual({ errors: 0, warnings: 0, ignored: 0 });
    }
  });
});
