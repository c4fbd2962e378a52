// The docs pages' only script, served from this origin: the version picker opens the chosen
// version, and on the reference page Scalar (also served from this origin) replaces the plain
// listing with the interactive reference. Without script, both work as plain HTML.
(() => {
  const picker = document.getElementById("version-picker");
  if (picker?.form) {
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
