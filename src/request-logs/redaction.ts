// The one rule for what the request log keeps of a request's or response's text: every value
// that is, or is named as, a credential is replaced by `[REDACTED]` before anything is stored.
//
// - A field (JSON member, form field, query parameter) whose name holds one of the words of
//   SECRET_NAME (`api_key`, `secret`, `token`, `password`, `authorization`, card numbers and
//   codes, a card's `pci_details`, …), whatever its value: the whole value goes, objects and
//   arrays included.
// - Any text that looks like a credential, whatever field holds it: this service's API keys
//   (`sk_sandbox_…`, `sk_live_…`), webhook secrets (`whsec_…`), JSON Web Tokens, and the value of
//   a `Basic`/`Bearer` credential.
// - Text that is not JSON or a form is masked by the same two rules, read as `name=value` and
//   `"name": "value"` pairs.

export const REDACTED = "[REDACTED]";

/** A name holding any of these (compared without case, `_`, `-` or spaces) names a secret. */
const SECRET_NAME =
  /apikey|secret|token|password|passwd|passphrase|credential|authorization|privatekey|accesskey|signature|cardnumber|cvv|cvc|^pan$|pcidetails/;

/** Text that is a credential wherever it appears. */
const CREDENTIAL_TEXT =
  /\bsk_(?:sandbox|live)_[A-Za-z0-9]+|\bwhsec_[A-Za-z0-9+/=]+|\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*|\b(?:Basic|Bearer)\s+[A-Za-z0-9._~+/=-]+/gi;

/** `name=value` or `"name": "value"` in free text, for text that is not JSON or a form. */
const NAMED_VALUE = /("?)([A-Za-z][\w-]*)\1(\s*[:=]\s*)("[^"]*"|[^\s&,;}"]+)/g;

/** Whether a field of this name holds a secret, by the rule above. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name.toLowerCase().replace(/[\s_-]/g, ""));
}

/** `text` with every credential-looking part replaced. */
function maskCredentials(text: string): string {
  return text.replace(CREDENTIAL_TEXT, REDACTED);
}

/** A JSON value with every secret field and credential-looking string redacted. */
export function redactJson(value: unknown): unknown {
  if (typeof value === "string") return maskCredentials(value);
  if (Array.isArray(value)) return value.map(redactJson);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(value)) {
      out[name] = isSecretName(name) ? REDACTED : redactJson(field);
    }
    return out;
  }
  return value;
}

/** Form or query parameters, secrets redacted, in their order. */
function redactParameters(text: string): string {
  const params = new URLSearchParams(text);
  const out = new URLSearchParams();
  for (const [name, value] of params) {
    out.append(name, isSecretName(name) ? REDACTED : maskCredentials(value));
  }
  return out.toString();
}

/** Free text with credentials and secret `name=value` pairs masked (an error message). */
export function redactText(text: string): string {
  return maskCredentials(text).replace(NAMED_VALUE, (whole, quote, name, sep) =>
    isSecretName(name) ? `${quote}${name}${quote}${sep}${REDACTED}` : whole,
  );
}

/** A body's text as the log keeps it: JSON and forms field by field, anything else masked. */
export function redactBody(text: string, contentType: string | null): string {
  const type = (contentType ?? "").toLowerCase();
  if (type.startsWith("application/x-www-form-urlencoded")) return redactParameters(text);
  try {
    return JSON.stringify(redactJson(JSON.parse(text)));
  } catch {
    return redactText(text);
  }
}

/**
 * A cheap first look, wider than the rule: most queries (`limit=10`) hold nothing to redact, and
 * one that may (an escaped name included) is read parameter by parameter.
 */
const MAYBE_SECRET_QUERY =
  /%|api.?key|secret|token|pass|credential|authori|private|access|signature|card|cvv|cvc|pan|sk_|whsec_|eyJ|bearer|basic/i;

/** A path with its query, secret parameters redacted. */
export function redactPath(pathname: string, search: string): string {
  if (search === "" || !MAYBE_SECRET_QUERY.test(search)) return pathname + search;
  return `${pathname}?${redactParameters(search.slice(1))}`;
}
