// The sign-in page. Invitations link here as /login?code=XXXXXXXX, so the guest only
// types a last name.
import { auth, displayName, landingFor, login } from "./api.js";
import { takeOver } from "./forms.js";
import { t } from "./i18n.js";

const form = document.getElementById("login-form");
const codeInput = document.getElementById("code");
const lastNameInput = document.getElementById("lastName");
const submit = document.getElementById("login-submit");
const errorBox = document.getElementById("login-error");
const notice = document.getElementById("login-notice");

// normalizeCode keeps what a person may type or paste around a code out of it: spaces,
// dashes and lower case.
function normalizeCode(value) {
  return value.toUpperCase().replace(/[\s-]+/g, "");
}

function showError(message) {
  errorBox.textContent = message;
  errorBox.hidden = false;
}

function clearError() {
  errorBox.hidden = true;
  errorBox.textContent = "";
  codeInput.removeAttribute("aria-invalid");
  lastNameInput.removeAttribute("aria-invalid");
}

function showNotice(node) {
  notice.replaceChildren(node);
  notice.hidden = false;
}

const params = new URLSearchParams(location.search);
const code = normalizeCode(params.get("code") || "");
// next is the page to go back to after signing in (/login?next=/door); landingFor keeps
// only the pages the role may open on this site.
const next = params.get("next") || "";
if (code) codeInput.value = code;

const needKeys = { guest: "login.needGuest", bartender: "login.needBartender", admin: "login.needAdmin" };
const me = auth();
if (params.has("expired")) {
  showNotice(document.createTextNode(t("login.expired")));
} else if (params.has("need")) {
  showNotice(document.createTextNode(t(needKeys[params.get("need")] || "login.needOther")));
} else if (me && !code) {
  // Already signed in: offer the way back rather than redirecting, so a shared tablet can
  // still switch to another person.
  const link = document.createElement("a");
  link.href = landingFor(me.role, next);
  link.textContent = t("login.continue");
  const text = document.createTextNode(t("login.signedInAs", { name: displayName(me.guest) || me.role }));
  const span = document.createElement("span");
  span.append(text, link);
  showNotice(span);
}

(code ? lastNameInput : codeInput).focus();

codeInput.addEventListener("input", () => {
  const start = codeInput.selectionStart;
  const upper = codeInput.value.toUpperCase();
  if (upper !== codeInput.value) {
    codeInput.value = upper;
    codeInput.setSelectionRange(start, start);
  }
});

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  clearError();
  const codeValue = normalizeCode(codeInput.value);
  const lastName = lastNameInput.value.trim();
  if (!codeValue) {
    codeInput.setAttribute("aria-invalid", "true");
    codeInput.focus();
    showError(t("login.enterCode"));
    return;
  }
  if (!lastName) {
    lastNameInput.setAttribute("aria-invalid", "true");
    lastNameInput.focus();
    showError(t("login.enterLastName"));
    return;
  }

  submit.disabled = true;
  submit.textContent = t("login.submitting");
  try {
    // fromLink: the code is still the one the invitation link filled in.
    const result = await login(codeValue, lastName, codeValue === code && code !== "");
    location.replace(landingFor(result.role, next));
  } catch (err) {
    showError(err.message);
    submit.disabled = false;
    submit.textContent = t("login.submit");
  }
});

takeOver(form);
