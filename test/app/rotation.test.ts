// Secret rotation without an outage, step by step as docs/operations.md tells it: page tokens and
// PDF links signed before a rotation keep working while the previous secret is kept, and stop
// once it is removed; the operator token rotates the same way.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { expectJson, operator } from "../support/api";
import { fetchWithEnv } from "../support/app-env";
import { OLDEST } from "../support/bundle-versions";
import { pdfBytes, seedAccount, statementsPath } from "../support/fixtures";
import { OPERATOR_TOKEN } from "../support/worker";

const OLD = env.SIGNING_SECRET as string;
const NEW = "rotated-signing-secret-9876543210zyxwvutsrqponm";

interface Page {
  data: { statement_id: string; pdf_url?: string }[];
  next_page_token?: string;
}

/** A listing's first page and link, issued under the secret in force before the rotation. */
async function issuedBeforeRotation() {
  const f = await seedAccount({ statements: 6 });
  const id = `${f.accountId}_st_006`;
  const upload = await operator("PUT", `/statements/${id}/pdf`, pdfBytes(), {
    "content-type": "application/pdf",
  });
  expect(upload.status).toBe(204);
  const page = await expectJson<Page>(
    await fetchWithEnv(statementsPath(f, "?limit=2"), { headers: auth(f.key) }, {}),
    200,
  );
  return {
    f,
    token: page.next_page_token as string,
    link: String(page.data[0]?.pdf_url).replace("http://api.test", ""),
  };
}

const auth = (key: string) => ({ authorization: `Bearer ${key}` });

/** Sends the next-page request and the link download under `secrets`. */
async function useUnder(
  issued: Awaited<ReturnType<typeof issuedBeforeRotation>>,
  secrets: Record<string, string | undefined>,
  token = issued.token,
  link = issued.link,
) {
  const next = await fetchWithEnv(
    statementsPath(issued.f, `?limit=2&starting_after=${token}`),
    { headers: auth(issued.f.key) },
    secrets,
  );
  const download = await fetchWithEnv(link, {}, secrets);
  return { next: next.status, download: download.status };
}

describe("rotating SIGNING_SECRET", () => {
  it("names the signing key in tokens and links, and a new secret gets a new name", async () => {
    const issued = await issuedBeforeRotation();
    const oldId = issued.token.split(".")[2];
    expect(oldId).toMatch(/^[A-Za-z0-9_-]{8}$/);
    expect(new URL(issued.link, "http://x").searchParams.get("kid")).toBe(oldId);
    const page = await expectJson<Page>(
      await fetchWithEnv(
        statementsPath(issued.f, "?limit=2"),
        { headers: auth(issued.f.key) },
        { SIGNING_SECRET: NEW, SIGNING_SECRET_PREVIOUS: OLD },
      ),
      200,
    );
    const newId = page.next_page_token?.split(".")[2];
    expect(newId).toMatch(/^[A-Za-z0-9_-]{8}$/);
    expect(newId).not.toBe(oldId);
  });

  it("keeps old tokens and links working while the previous secret is kept, then stops them", async () => {
    const issued = await issuedBeforeRotation();
    // Step 1: the new secret signs, the old one still verifies.
    expect(await useUnder(issued, { SIGNING_SECRET: NEW, SIGNING_SECRET_PREVIOUS: OLD })).toEqual({
      next: 200,
      download: 200,
    });
    // Step 2, after the grace period: the previous secret is removed.
    expect(await useUnder(issued, { SIGNING_SECRET: NEW })).toEqual({ next: 400, download: 403 });
  });

  it("keeps verifying tokens and links issued before key ids existed", async () => {
    const issued = await issuedBeforeRotation();
    const legacyToken = issued.token.split(".").slice(0, 2).join(".");
    const legacyLink = issued.link.replace(/&kid=[^&]*/, "");
    expect(legacyLink).not.toContain("kid=");
    const unrotated = await useUnder(issued, {}, legacyToken, legacyLink);
    expect(unrotated).toEqual({ next: 200, download: 200 });
    const during = await useUnder(
      issued,
      { SIGNING_SECRET: NEW, SIGNING_SECRET_PREVIOUS: OLD },
      legacyToken,
      legacyLink,
    );
    expect(during).toEqual({ next: 200, download: 200 });
    const after = await useUnder(issued, { SIGNING_SECRET: NEW }, legacyToken, legacyLink);
    expect(after).toEqual({ next: 400, download: 403 });
  });

  it("refuses a token or link whose key id names another key", async () => {
    const issued = await issuedBeforeRotation();
    const [payload, mac] = issued.token.split(".");
    const forgedToken = `${payload}.${mac}.AAAAAAAA`;
    const forgedLink = issued.link.replace(/kid=[^&]*/, "kid=AAAAAAAA");
    const result = await useUnder(
      issued,
      { SIGNING_SECRET: NEW, SIGNING_SECRET_PREVIOUS: OLD },
      forgedToken,
      forgedLink,
    );
    expect(result).toEqual({ next: 400, download: 403 });
  });

  it("never accepts a previous secret too short to be safe", async () => {
    const issued = await issuedBeforeRotation();
    const short = OLD.slice(0, 31);
    const result = await useUnder(issued, { SIGNING_SECRET: NEW, SIGNING_SECRET_PREVIOUS: short });
    expect(result).toEqual({ next: 400, download: 403 });
  });
});

describe("rotating OPERATOR_TOKEN", () => {
  const NEW_TOKEN = "rotated-operator-token-0123456789";
  const call = (token: string, secrets: Record<string, string | undefined>) =>
    fetchWithEnv(
      "/operator/v1/partners/nobody/saved-versions/sandbox",
      {
        method: "PUT",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ version: OLDEST }),
      },
      secrets,
    );

  it("accepts both tokens during the rotation and only the new one after", async () => {
    const during = { OPERATOR_TOKEN: NEW_TOKEN, OPERATOR_TOKEN_PREVIOUS: OPERATOR_TOKEN };
    // 404: authenticated, and the partner does not exist.
    expect((await call(NEW_TOKEN, during)).status).toBe(404);
    expect((await call(OPERATOR_TOKEN, during)).status).toBe(404);
    expect((await call("wrong", during)).status).toBe(401);
    const after = { OPERATOR_TOKEN: NEW_TOKEN };
    expect((await call(NEW_TOKEN, after)).status).toBe(404);
    expect((await call(OPERATOR_TOKEN, after)).status).toBe(401);
  });
});
