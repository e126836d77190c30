// takeOver hands form to the page's own submit handler, attached just before: from now
// on the page sends it, and a press that hold-submit.js held while the page loaded is
// sent now.
export function takeOver(form) {
  form.dataset.ready = "";
  if ("held" in form.dataset) {
    delete form.dataset.held;
    form.requestSubmit();
  }
}
