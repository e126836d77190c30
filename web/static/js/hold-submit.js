// The sign-in page's module waits for the language catalogue before it runs, so a
// person (or a password manager) can press "Sign in" before the page can send the form
// itself. The browser would then send it its own way, a GET that puts the code and the
// last name in the address, where logs keep it. This classic script runs as soon as the
// form is parsed and holds such a press; the module sends the held form once it is ready
// (login.js marks the form data-ready).
for (const form of document.querySelectorAll("form[data-hold-submit]")) {
  form.addEventListener("submit", (event) => {
    if (!("ready" in form.dataset)) {
      event.preventDefault();
      form.dataset.held = "";
    }
  });
}
