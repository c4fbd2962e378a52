// The local runs fire the Worker's cron themselves (`wrangler dev` never does): at the times
// wrangler.toml's one cron names, so that the local sweep runs as the deployed one does.
import { describe, expect, it } from "vitest";
import { cronOf } from "../../scripts/local-cron.ts";

describe("the local cron", () => {
  it("runs at wrangler.toml's cron, every five minutes", () => {
    expect(cronOf()).toEqual({ cron: "*/5 * * * *", everyMs: 5 * 60_000 });
  });

  it("refuses a cron it cannot run locally, naming it", () => {
    const toml = (crons: string) => `[triggers]\ncrons = [${crons}]\n`;
    expect(cronOf(toml('"*/15 * * * *"'))).toEqual({ cron: "*/15 * * * *", everyMs: 900_000 });
    expect(() => cronOf(toml('"0 3 * * *"'))).toThrow(/got \["0 3 \* \* \*"\]/);
    expect(() => cronOf(toml('"*/5 * * * *", "0 3 * * *"'))).toThrow(/must be one/);
    expect(() => cronOf("")).toThrow(/must be one/);
  });
});
