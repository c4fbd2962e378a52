// Sign-in pages: ask for an address, say a link is on its way (whatever the address), and the
// confirmation a mailed link opens (a GET never spends the link: mail scanners fetch links).
import { Page } from "./layout";

export function SignInForm(props: { notice?: string | undefined; error?: string; email?: string }) {
  return (
    <Page title="Sign in" notice={props.notice}>
      <p>We mail you a link that signs you in. There is no password.</p>
      <form method="post" action="/dashboard/sign-in">
        {props.error && (
          <p role="alert" id="email-error" class="error">
            {props.error}
          </p>
        )}
        <label for="email">Email address</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="email"
          required
          value={props.email ?? ""}
          aria-describedby={props.error ? "email-error" : undefined}
        />
        <button type="submit">Email me a sign-in link</button>
      </form>
    </Page>
  );
}

export function LinkSent({ email }: { email: string }) {
  return (
    <Page title="Check your email">
      <p role="status">
        If <strong>{email}</strong> belongs to a dashboard user, a sign-in link is on its way. It
        works once, for 15 minutes.
      </p>
      <p>
        <a href="/dashboard/sign-in">Use another address</a>
      </p>
    </Page>
  );
}

export function TooManyRequests() {
  return (
    <Page title="Too many sign-in requests">
      <p role="alert">Too many sign-in links were asked for. Wait a minute, then try again.</p>
      <p>
        <a href="/dashboard/sign-in">Back to sign-in</a>
      </p>
    </Page>
  );
}

export function ConfirmSignIn(props: { token: string; email: string; partnerName: string }) {
  return (
    <Page title="Confirm sign-in">
      <p>
        Sign in to <strong>{props.partnerName}</strong> as <strong>{props.email}</strong>?
      </p>
      <form method="post" action="/dashboard/sign-in/confirm">
        <input type="hidden" name="token" value={props.token} />
        <button type="submit">Sign in</button>
      </form>
    </Page>
  );
}

export function LinkUnusable() {
  return (
    <Page title="This link cannot be used">
      <p role="alert">
        This sign-in link has expired, was used already, or was replaced by a newer one.
      </p>
      <p>
        <a href="/dashboard/sign-in">Ask for a new link</a>
      </p>
    </Page>
  );
}
