// "Copy the link" and "Share…" beside an invitation or token shown once. Without JavaScript the
// text box is still there to select and copy by hand.
for (const button of document.querySelectorAll("[data-copy]")) {
  const box = document.querySelector(button.dataset.copy);
  if (!box || !navigator.clipboard) continue;
  button.hidden = false;
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(box.value);
      button.textContent = "Copied";
    } catch {
      box.select();
      button.textContent = "Select and copy it above";
    }
  });
}
for (const button of document.querySelectorAll("[data-share]")) {
  const box = document.querySelector(button.dataset.share);
  if (!box || !navigator.share) continue;
  button.hidden = false;
  button.addEventListener("click", () => {
    navigator.share({ title: button.dataset.title || document.title, url: box.value }).catch(() => {});
  });
}
