// Copy buttons on a form's page (pages/share.rs): `<button data-copy="ID">` copies the
// value of the field ID and says so. Without scripts the fields are still there to select.

async function copy(field) {
  try {
    await navigator.clipboard.writeText(field.value);
  } catch {
    // Older browsers, or a page not in a secure context: the selection way still works.
    field.select();
    document.execCommand("copy");
  }
}

for (const button of document.querySelectorAll("button[data-copy]")) {
  const field = document.getElementById(button.dataset.copy);
  const status = document.getElementById("copied");
  const label = button.textContent;
  button.addEventListener("click", async () => {
    await copy(field);
    button.textContent = "Copied";
    status.textContent = button.dataset.copy === "embed" ? "Snippet copied." : "Link copied.";
    setTimeout(() => {
      button.textContent = label;
    }, 2000);
  });
}
