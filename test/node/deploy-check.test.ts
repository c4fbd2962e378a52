// `npm run deploy` refuses an operator token shorter than 32 characters (or none), before anything
// is built or uploaded: the predeploy check, run as npm runs it. The token it checks is the one
// the deploy uploads (wrangler's --secrets-file expands it from the same environment); the local
// `dev-operator-token` of .dev.vars stays what local runs use.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  MIN_OPERATOR_TOKEN_LENGTH,
  operatorTokenProblem,
} from "../../scripts/check-operator-token.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

/** The environment of a deploy: this one's, without a token unless given. */
function deployEnv(token: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, WRANGLER_SEND_METRICS: "false" };
  delete env.OPERATOR_TOKEN;
  if (token !== undefined) env.OPERATOR_TOKEN = token;
  return env;
}

function check(token: string | undefined) {
  return spawnSync(process.execPath, [path.join(ROOT, "scripts", "check-operator-token.ts")], {
    cwd: ROOT,
    env: deployEnv(token),
    encoding: "utf8",
  });
}

describe("the predeploy check of OPERATOR_TOKEN", () => {
  it("refuses no token, a short one and the local one, saying why", () => {
    const local = /OPERATOR_TOKEN=(\S+)/.exec(
      readFileSync(path.join(ROOT, ".dev.vars.example"), "utf8"),
    )?.[1];
    expect(local).toBe("dev-operator-token");
    for (const [token, reason] of [
      [undefined, "OPERATOR_TOKEN is not set"],
      ["", "OPERATOR_TOKEN is not set"],
      [local, "has 18 characters; a deployment needs at least 32"],
      ["x".repeat(MIN_OPERATOR_TOKEN_LENGTH - 1), "has 31 characters"],
      [` ${"x".repeat(40)}`, "whitespace"],
    ] as const) {
      const run = check(token);
      expect(run.status, String(token)).toBe(1);
      expect(run.stderr).toContain("npm run deploy refused");
      expect(run.stderr).toContain(reason);
      // The token itself is never printed.
      if (token) expect(run.stderr + run.stdout).not.toContain(token.trim());
    }
  });

  it("lets a token of 32 characters or more through", () => {
    expect(MIN_OPERATOR_TOKEN_LENGTH).toBe(32);
    for (const token of ["x".repeat(32), "A1b2".repeat(16)]) {
      const run = check(token);
      expect(run.status, run.stderr).toBe(0);
      expect(operatorTokenProblem(token)).toBeNull();
      expect(run.stdout).not.toContain(token);
    }
  });

  it("runs before the deploy, which uploads the checked token", () => {
    const scripts = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts;
    expect(scripts.predeploy).toMatch(/^node scripts\/check-operator-token\.ts && /);
    expect(scripts.deploy).toMatch(
      /wrangler deploy --secrets-file scripts\/deploy-secrets\.env --var DEPLOYMENT:production$/,
    );
    const secrets = readFileSync(path.join(ROOT, "scripts", "deploy-secrets.env"), "utf8");
    expect(secrets).toMatch(/^OPERATOR_TOKEN=\$\{OPERATOR_TOKEN\}$/m);
  });

  it("marks only the deployed API Worker as a deployment, never a local run", () => {
    // With the marker, the Worker refuses a short token itself (src/app/operator-api.ts).
    const scripts = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts;
    const marked = Object.entries(scripts as Record<string, string>)
      .filter(([, command]) => command.includes("DEPLOYMENT"))
      .map(([name]) => name);
    expect(marked).toEqual(["deploy"]);
    for (const file of ["wrangler.toml", ".dev.vars.example", "renderer/wrangler.toml"]) {
      expect(readFileSync(path.join(ROOT, file), "utf8"), file).not.toMatch(/^\s*DEPLOYMENT\b/m);
    }
  });

  it("stops `npm run deploy` itself before anything is deployed", () => {
    const run = spawnSync("npm", ["run", "deploy"], {
      cwd: ROOT,
      env: deployEnv("dev-operator-token"),
      encoding: "utf8",
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain("npm run deploy refused");
    // The deploy script never ran: no wrangler output.
    expect(run.stdout + run.stderr).not.toMatch(/wrangler|Uploaded|Total Upload/i);
  });
});
