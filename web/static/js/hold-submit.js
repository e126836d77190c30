// A page's module waits for the language catalogue before it runs, so a person (or a
// password manager, or a code scanner at the door) can send a form before the page can
// send it itself. The browser would then send it its own way, a GET that puts a guest's
// code in the address, where logs keep it. This classic script runs as soon as the forms
// are parsed and holds such a press on every form marked data-hold-submit; the module
// sends it once it is ready (forms.js, takeOver).
for (const form of document.querySelectorAll("form[data-hold-submit]")) {
  form.addEventListener("submit", (event) => {
    if (!("ready" in form.dataset)) {
      event.preventDefault();
      form.dataset.held = "";
    }
  });
}
