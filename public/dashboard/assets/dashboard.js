// Copy buttons: <button data-copy="ID" hidden> copies the value of #ID. Without script the
// button stays hidden and the key can still be selected and copied by hand.
for (const button of document.querySelectorAll("button[data-copy]")) {
  const source = document.getElementById(button.dataset.copy);
  const status = document.getElementById(`${button.dataset.copy}-status`);
  if (!source || !navigator.clipboard) continue;
  button.hidden = false;
  button.addEventListener("click", async () => {
    await navigator.clipboard.writeText(source.value);
    if (status) status.textContent = "Copied to the clipboard.";
  });
}
