// The one layout of the dashboard, through `jsxRenderer`: the header with the partner, the
// navigation and the environment switch, then the page a handler renders with `c.render(content,
// { title, section, notice })`. The signed-in user and the page's environment come from the
// request, not from the page. Works without script; the one script only adds copy buttons.
import type { Context } from "hono";
import type { Child } from "hono/jsx";
import { jsxRenderer, useRequestContext } from "hono/jsx-renderer";
import type { AppEnv, DashboardSession } from "../app/context";
import type { Environment } from "../domain/environment";
import { allows } from "../domain/permissions";
import type { NavEntry } from "./page";

/** What a page tells the layout about itself. */
export interface PageProps {
  title: string;
  /**
   * The section of the navigation the page belongs to. A page of a section that is in an
   * environment shows the environment switch (to the same section in the other) and, in
   * production, its banner.
   */
  section?: string | undefined;
  /** A one-line confirmation of what the last action did. */
  notice?: string | undefined;
}

declare module "hono" {
  interface ContextRenderer {
    // biome-ignore lint/style/useShorthandFunctionType: only an interface merges with Hono's
    (content: Child, props: PageProps): Response | Promise<Response>;
  }
}

const ENVIRONMENTS: { id: Environment; label: string }[] = [
  { id: "sandbox", label: "Sandbox" },
  { id: "production", label: "Production" },
];

/** The hidden CSRF field of a form of the signed-in session. */
export function CsrfField() {
  const { csrfToken } = useRequestContext<AppEnv>().get("session");
  return <input type="hidden" name="csrf" value={csrfToken} />;
}

/** An instant as `YYYY-MM-DD HH:MM UTC`, machine-readable in `datetime`. */
export function Time({ at }: { at: string }) {
  return <time datetime={at}>{`${at.slice(0, 10)} ${at.slice(11, 16)} UTC`}</time>;
}

interface HeaderProps {
  navigation: readonly NavEntry[];
  session: DashboardSession | undefined;
  environment: Environment | undefined;
  section: string | undefined;
}

function Header({ navigation, session, environment, section }: HeaderProps) {
  if (!session) {
    return (
      <header class="top">
        <p class="brand">Card Statements</p>
      </header>
    );
  }
  const env = environment ?? "sandbox";
  return (
    <header class="top">
      <p class="brand">
        Card Statements <span class="partner">{session.partnerName}</span>
      </p>
      <nav aria-label="Dashboard">
        <ul>
          {navigation
            .filter((entry) => !entry.action || allows(session.user.role, entry.action, env))
            .map((entry) => (
              <li>
                <a
                  href={`/dashboard/${entry.perEnvironment ? `${env}/` : ""}${entry.section}`}
                  aria-current={entry.section === section ? "page" : undefined}
                >
                  {entry.label}
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
          <CsrfField />
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

/** The layout, with the header's navigation. */
export function renderer(navigation: readonly NavEntry[]) {
  return jsxRenderer(
    (
      { children, title, section, notice }: PageProps & { children?: Child },
      c: Context<AppEnv>,
    ) => {
      const session = c.get("session");
      // The environment of an environment page, once it was let in (see `allow`).
      const environment = section === undefined ? undefined : c.get("environment");
      return (
        <html lang="en">
          <head>
            <meta charset="utf-8" />
            <meta name="viewport" content="width=device-width, initial-scale=1" />
            <title>{`${title} · Card Statements dashboard`}</title>
            <link rel="stylesheet" href="/dashboard/assets/dashboard.css" />
            <script src="/dashboard/assets/dashboard.js" defer />
          </head>
          <body class={environment === "production" ? "production" : undefined}>
            <a class="skip" href="#main">
              Skip to content
            </a>
            <Header
              navigation={navigation}
              session={session}
              environment={environment}
              section={section}
            />
            <main id="main">
              {environment === "production" && (
                <p class="live-banner">Production: changes here affect live API traffic.</p>
              )}
              <h1>{title}</h1>
              {notice && (
                <p class="notice" role="status">
                  {notice}
                </p>
              )}
              {children}
            </main>
          </body>
        </html>
      );
    },
    { docType: "<!doctype html>" },
  );
}
