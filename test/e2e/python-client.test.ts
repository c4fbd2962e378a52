// The Python client (packages/client-python) end to end: `npm start` in a checkout of its own,
// then the package's end-to-end tests (`python3 -m unittest` in packages/client-python/e2e), given
// the run's base URL, the demo keys, the operator token and the demo's statements. They walk every
// demo statement in every version, provoke each error type and verify a delivered webhook.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEYS, demoImports } from "../../scripts/demo-data.ts";
import { freePort } from "../support/node/local-service.ts";
import { NpmStart, ROOT, STARTUP_MS, scratchCopy, shellEnv } from "../support/node/npm-start.ts";

const PACKAGE = path.join(ROOT, "packages", "client-python");
const PYTHON_MS = 240_000;

/** Every demo account, with the demo key that reads it and its statements as imported. */
function demoAccounts() {
  return demoImports().flatMap(({ customers, accounts, statements }) =>
    accounts.map((account) => {
      const customer = customers.find((c) => c.customer_id === account.customer_id);
      const key = DEMO_KEYS.find(
        (k) => k.partner_id === customer?.partner_id && k.environment === customer?.environment,
      );
      if (!customer || !key) throw new Error(`no demo key reads ${account.account_id}`);
      return {
        key: key.name,
        environment: customer.environment,
        customer_id: customer.customer_id,
        account_id: account.account_id,
        merchant_key: customer.merchant_key,
        statements: statements.filter((s) => s.account_id === account.account_id),
      };
    }),
  );
}

/** Runs a command to its end; its exit code and everything it printed. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe("the Python client against npm start", () => {
  const checkout = scratchCopy();
  const scratch = mkdtempSync(path.join(os.tmpdir(), "python-client-"));
  let local: NpmStart;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://localhost:${port}`;
    local = new NpmStart(checkout.root, port);
    await local.ready();
  }, STARTUP_MS);

  afterAll(async () => {
    await local?.interrupt();
    checkout.remove();
    rmSync(scratch, { recursive: true, force: true });
  });

  it(
    "walks every demo statement, meets each error type and verifies a delivered webhook",
    async () => {
      const saved = JSON.parse(
        readFileSync(path.join(checkout.root, ".wrangler", "demo-keys.json"), "utf8"),
      ) as Record<string, { api_key: string }>;
      const devVars = readFileSync(path.join(checkout.root, ".dev.vars"), "utf8");
      const demo = {
        base_url: base,
        keys: Object.fromEntries(Object.entries(saved).map(([name, k]) => [name, k.api_key])),
        operator_token: /^OPERATOR_TOKEN=(.*)$/m.exec(devVars)?.[1]?.trim(),
        accounts: demoAccounts(),
      };
      const file = path.join(scratch, "demo.json");
      writeFileSync(file, JSON.stringify(demo));
      const { code, output } = await run(
        "python3",
        ["-m", "unittest", "discover", "-s", "e2e", "-v"],
        PACKAGE,
        shellEnv({
          PYTHONPATH: PACKAGE,
          PYTHONDONTWRITEBYTECODE: "1",
          CARD_STATEMENTS_E2E: file,
        }),
      );
      console.info(output.trim());
      expect(code, output).toBe(0);
      expect(output).toMatch(/^Ran \d+ tests? in /m);
      expect(output).not.toMatch(/skipped/);
      expect(local.output).not.toMatch(/\bstack:|Uncaught|\[ERROR\]/);
    },
    PYTHON_MS,
  );
});
