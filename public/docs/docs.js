// The docs pages' only script, served from this origin: the version and environment pickers open
// the chosen reference, and on the reference page Scalar (also served from this origin) replaces
// the plain listing with the interactive reference. Without script, both work as plain HTML.
(() => {
  for (const id of ["version-picker", "environment-picker"]) {
    const picker = document.getElementById(id);
    if (!picker?.form) continue;
    picker.addEventListener("change", () => picker.form.submit());
    const button = picker.form.querySelector("button");
    if (button) button.hidden = true;
  }

  const app = document.getElementById("app");
  const url = app?.dataset.openapiUrl;
  if (!app || !url || !window.Scalar?.createApiReference) return;
  window.Scalar.createApiReference(app, {
    url,
    // Everything from this origin: no web fonts, no proxy, no telemetry, no hosted client.
    withDefaultFonts: false,
    telemetry: false,
    hideClientButton: true,
    showDeveloperTools: "never",
    hideDarkModeToggle: true,
    agent: { disabled: true },
    mcp: { disabled: true },
    layout: "modern",
  });
  document.getElementById("operations").hidden = true;
  document.documentElement.dataset.reference = "interactive";
})();
