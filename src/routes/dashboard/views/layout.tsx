// The page frame of the dashboard: header with the partner, the environment switch and the
// navigation, then the page. Works without script; the one script only adds copy buttons.
import { raw } from "hono/html";
import type { Child } from "hono/jsx";
import type { DashboardSession } from "../../../app/context";
import type { Environment } from "../../../domain/environment";
import { allows } from "../../../domain/permissions";

export type Section = "keys" | "webhooks" | "version" | "team" | "audit";

export interface PageProps {
  title: string;
  session?: DashboardSession | undefined;
  /** The environment of an environment page; the switch links to the same page in the other. */
  environment?: Environment | undefined;
  section?: Section | undefined;
  /** A one-line confirmation of what the last action did. */
  notice?: string | undefined;
  children?: Child;
}

const ENVIRONMENTS: { id: Environment; label: string }[] = [
  { id: "sandbox", label: "Sandbox" },
  { id: "production", label: "Production" },
];

export function CsrfField({ session }: { session: DashboardSession }) {
  return <input type="hidden" name="csrf" value={session.csrfToken} />;
}

/** An instant as `YYYY-MM-DD HH:MM UTC`, machine-readable in `datetime`. */
export function Time({ at }: { at: string }) {
  return <time datetime={at}>{`${at.slice(0, 10)} ${at.slice(11, 16)} UTC`}</time>;
}

function Header({ session, environment, section }: PageProps) {
  if (!session) {
    return (
      <header class="top">
        <p class="brand">Card Statements</p>
      </header>
    );
  }
  const env = environment ?? "sandbox";
  const admin = allows(session.user.role, "team.view", env);
  const links: { id: Section; label: string; href: string; show: boolean }[] = [
    { id: "keys", label: "API keys", href: `/dashboard/${env}/keys`, show: true },
    {
      id: "webhooks",
      label: "Webhooks",
      href: `/dashboard/${env}/webhooks`,
      show: allows(session.user.role, "webhooks.view", env),
    },
    { id: "version", label: "API version", href: `/dashboard/${env}/version`, show: true },
    { id: "team", label: "Team", href: "/dashboard/team", show: admin },
    { id: "audit", label: "Audit log", href: "/dashboard/audit", show: admin },
  ];
  return (
    <header class="top">
      <p class="brand">
        Card Statements <span class="partner">{session.partnerName}</span>
      </p>
      <nav aria-label="Dashboard">
        <ul>
          {links
            .filter((l) => l.show)
            .map((l) => (
              <li>
                <a href={l.href} aria-current={l.id === section ? "page" : undefined}>
                  {l.label}
                </a>
              </li>
            ))}
        </ul>
      </nav>
      <div class="account">
        <span>
          {session.user.email} ({session.user.role})
        </span>
        <form method="post" action="/dashboard/sign-out">
          <CsrfField session={session} />
          <button type="submit">Sign out</button>
          <button type="submit" name="everywhere" value="1" class="link">
            Sign out everywhere
          </button>
        </form>
      </div>
      {environment && section && (
        <nav aria-label="Environment" class="environments">
          <ul>
            {ENVIRONMENTS.map((e) => (
              <li>
                <a
                  href={`/dashboard/${e.id}/${section}`}
                  aria-current={e.id === environment ? "page" : undefined}
                >
                  {e.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </header>
  );
}

export function Page(props: PageProps) {
  return (
    <>
      {raw("<!doctype html>")}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>{`${props.title} · Card Statements dashboard`}</title>
          <link rel="stylesheet" href="/dashboard/assets/dashboard.css" />
          <script src="/dashboard/assets/dashboard.js" defer />
        </head>
        <body class={props.environment === "production" ? "production" : undefined}>
          <a class="skip" href="#main">
            Skip to content
          </a>
          <Header {...props} />
          <main id="main">
            {props.environment === "production" && (
              <p class="live-banner">Production: changes here affect live API traffic.</p>
            )}
            <h1>{props.title}</h1>
            {props.notice && (
              <p class="notice" role="status">
                {props.notice}
              </p>
            )}
            {props.children}
          </main>
        </body>
      </html>
    </>
  );
}
