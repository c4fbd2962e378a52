// The dashboard's stylesheet and its one script, served by the Worker itself (no CDN, and CSP
// `'self'` with no inline code). The script only adds copy buttons: every page works without it.
import { Hono } from "hono";
import type { AppEnv } from "../../app/context";

const STYLESHEET = `
:root { --ink: #1b1f24; --muted: #4b5563; --line: #d0d7de; --accent: #0b5cad; --bg: #ffffff;
  --soft: #f3f5f7; --live: #8a1c00; --ok: #1d6b2f; --warn: #7a4a00; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink);
  background: var(--bg); }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible {
  outline: 3px solid #f2a900; outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: var(--bg); padding: .5rem; }
.skip:focus { left: .5rem; }
header.top { display: flex; flex-wrap: wrap; gap: .75rem 2rem; align-items: center;
  padding: .75rem 1.5rem; border-bottom: 1px solid var(--line); background: var(--soft); }
.brand { margin: 0; font-weight: 700; }
.partner { font-weight: 400; color: var(--muted); margin-left: .5rem; }
header nav ul { list-style: none; display: flex; gap: 1rem; margin: 0; padding: 0; }
header nav a[aria-current="page"] { font-weight: 700; color: var(--ink); text-decoration-thickness: 3px; }
.environments a { padding: .25rem .6rem; border: 1px solid var(--line); border-radius: 1rem;
  text-decoration: none; }
.environments a[aria-current="page"] { background: var(--ink); color: #ffffff; }
.account { margin-left: auto; display: flex; gap: .75rem; align-items: center; }
.account form { display: flex; gap: .5rem; margin: 0; }
main { padding: 1rem 1.5rem 3rem; max-width: 78rem; }
.live-banner { background: #fff1ec; border: 1px solid var(--live); color: var(--live);
  padding: .5rem .75rem; font-weight: 600; }
.notice { background: #eaf6ec; border: 1px solid var(--ok); color: var(--ok); padding: .5rem .75rem; }
.error, [role="alert"] { color: #9b1c1c; }
table { border-collapse: collapse; width: 100%; margin: 1rem 0; }
th, td { text-align: left; vertical-align: top; padding: .45rem .6rem; border-bottom: 1px solid var(--line); }
th { background: var(--soft); }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .9em; }
form.stack { display: grid; gap: .6rem; max-width: 36rem; margin: 1rem 0; }
fieldset { border: 1px solid var(--line); padding: .75rem 1rem; }
label { font-weight: 600; }
fieldset label { font-weight: 400; }
input[type="email"], input[type="text"], input[type="url"], select { font: inherit; padding: .35rem .5rem;
  border: 1px solid #6b7280; border-radius: 4px; }
input.secret { width: 100%; max-width: 44rem; }
button { font: inherit; padding: .35rem .9rem; border: 1px solid var(--accent); border-radius: 4px;
  background: var(--accent); color: #ffffff; cursor: pointer; }
button.secondary, button.link { background: var(--bg); color: var(--accent); }
button.link { border: none; text-decoration: underline; padding: .35rem .2rem; }
button.danger { background: #9b1c1c; border-color: #9b1c1c; }
.status-active { color: var(--ok); font-weight: 600; }
.status-expiring { color: var(--warn); font-weight: 600; }
.status-expired, .status-revoked { color: var(--muted); }
.status-disabled { color: #9b1c1c; font-weight: 600; }
.inline { display: inline; }
.side-by-side { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
.side-by-side figure { margin: 0; min-width: 0; }
.side-by-side section { overflow-x: auto; background: var(--soft); border: 1px solid var(--line); }
.side-by-side pre { padding: .75rem; margin: 0; }
pre del, pre ins { display: block; text-decoration: none; }
pre del { background: #ffe3e3; }
pre ins { background: #dcf5e1; }
.muted { color: var(--muted); }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; }
`;

const SCRIPT = `
// Copy buttons: <button data-copy="ID" hidden> copies the value of #ID. Without script the
// button stays hidden and the key can still be selected and copied by hand.
for (const button of document.querySelectorAll("button[data-copy]")) {
  const source = document.getElementById(button.dataset.copy);
  const status = document.getElementById(button.dataset.copy + "-status");
  if (!source || !navigator.clipboard) continue;
  button.hidden = false;
  button.addEventListener("click", async () => {
    await navigator.clipboard.writeText(source.value);
    if (status) status.textContent = "Copied to the clipboard.";
  });
}
`;

export const assetRoutes = new Hono<AppEnv>()
  .get("/dashboard/assets/dashboard.css", (c) =>
    c.body(STYLESHEET, 200, { "content-type": "text/css; charset=utf-8" }),
  )
  .get("/dashboard/assets/dashboard.js", (c) =>
    c.body(SCRIPT, 200, { "content-type": "text/javascript; charset=utf-8" }),
  );
