// The one layout of the dashboard, the renderer of `c.render(content, { title, section, notice })`:
// the header with the partner, the navigation and the environment switch, then the page a handler
// renders. The signed-in user and the page's environment come from the request, not from the page.
// Works without script; the one script only adds copy buttons.
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { Child } from "hono/jsx";
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

/** A section's address: `/dashboard/{environment}/{section}`, `/dashboard/{environment}` (""). */
function sectionPath(environment: Environment | null, section: string): string {
  return ["/dashboard", environment, section].filter(Boolean).join("/");
}

const ENVIRONMENTS: { id: Environment; label: string }[] = [
  { id: "sandbox", label: "Sandbox" },
  { id: "production", label: "Production" },
];

/**
 * The request whose page is being rendered, for the components that read it (`CsrfField`): set
 * by the renderer only while it builds the page's string, which is synchronous (the dashboard has
 * no async components). This is what `jsxRenderer`'s `useRequestContext` is for; but
 * `hono/jsx-renderer`, like `createContext` of `hono/jsx`, brings the streaming renderer and the
 * client-side JSX runtime into the bundle (about 6 KiB gzip), which the dashboard does not use.
 */
let rendering: Context<AppEnv> | undefined;

/** The hidden CSRF field of a form of the signed-in session. */
export function CsrfField() {
  if (!rendering) throw new Error("CsrfField is rendered only in a page of c.render");
  const { csrfToken } = rendering.get("session");
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
  // The switch offers the environments where the section's page lets this user in.
  const action = navigation.find((entry) => entry.section === section)?.action;
  const switchable = ENVIRONMENTS.filter((e) => !action || allows(session.user.role, action, e.id));
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
                  href={sectionPath(entry.perEnvironment ? env : null, entry.section)}
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
      {environment && section !== undefined && switchable.length > 1 && (
        <nav aria-label="Environment" class="environments">
          <ul>
            {switchable.map((e) => (
              <li>
                <a
                  href={sectionPath(e.id, section)}
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

/** The layout, with the header's navigation: sets the renderer `c.render` uses. */
export function renderer(navigation: readonly NavEntry[]) {
  return createMiddleware<AppEnv>(async (c, next) => {
    c.setRenderer((content, props) => {
      rendering = c;
      try {
        const page = (
          <Layout {...props} navigation={navigation} c={c}>
            {content}
          </Layout>
        ).toString();
        if (typeof page !== "string") throw new Error("a dashboard page renders synchronously");
        return c.html(`<!doctype html>${page}`);
      } finally {
        rendering = undefined;
      }
    });
    await next();
  });
}

function Layout({
  children,
  title,
  section,
  notice,
  navigation,
  c,
}: PageProps & { children: Child; navigation: readonly NavEntry[]; c: Context<AppEnv> }) {
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
}
