// API calls and sign-in state shared by every barhub page.
//
// The token lives in localStorage so a guest who closes the tab and scans the menu QR
// code again an hour later is still signed in.

const KEY_TOKEN = "barhub.token";
const KEY_ROLE = "barhub.role";
const KEY_GUEST = "barhub.guest";

import { lang, t } from "./i18n.js";

const HOMES = { guest: "/", bartender: "/bar", admin: "/admin" };
// RETURNS are the pages a sign-in goes back to instead of the role's home, with the roles
// that may open them: a door volunteer has a bartender's sign-in, yet works the door, not
// the bar.
const RETURNS = { "/door": ["bartender", "admin"] };
const KEY_LAST_PAGE = "barhub.lastPage";
// signedInAtStart: the page opened with a sign-in, so a 401 later means it ended (expired,
// or signed out in another tab), not that the visitor never signed in.
const signedInAtStart = localStorage.getItem(KEY_TOKEN) !== null;

// wasSignedIn reports whether this page had a sign-in: now, or when it opened.
export function wasSignedIn() {
  return signedInAtStart || localStorage.getItem(KEY_TOKEN) !== null;
}

// ApiError carries the server's error code, HTTP status and details next to its message,
// so a page can react to, say, a 409 without parsing text.
export class ApiError extends Error {
  constructor(message, { status = 0, code = "", details = null } = {}) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

// auth returns the stored sign-in, or null when signed out.
export function auth() {
  const token = localStorage.getItem(KEY_TOKEN);
  if (!token) return null;
  let guest = null;
  try {
    guest = JSON.parse(localStorage.getItem(KEY_GUEST) || "null");
  } catch {
    guest = null;
  }
  return { token, role: localStorage.getItem(KEY_ROLE) || "guest", guest };
}

export function setAuth({ token, role, guest }) {
  localStorage.setItem(KEY_TOKEN, token);
  localStorage.setItem(KEY_ROLE, role || guest?.role || "guest");
  localStorage.setItem(KEY_GUEST, JSON.stringify(guest || null));
}

export function clearAuth() {
  localStorage.removeItem(KEY_TOKEN);
  localStorage.removeItem(KEY_ROLE);
  localStorage.removeItem(KEY_GUEST);
}

// api calls the barhub API and returns the decoded JSON body (null for an empty one).
// It throws an ApiError with the server's message. A 401 on a signed-in call means the
// token has expired or was revoked, so it signs out and goes to the sign-in page.
// options.headers adds headers, e.g. {"Idempotency-Key": key} when placing an order.
export async function api(method, path, body, options = {}) {
  // The server writes its error messages in the language the page shows, which the
  // person may have chosen over the browser's own.
  const headers = { Accept: "application/json", "Accept-Language": lang, ...(options.headers || {}) };
  const token = localStorage.getItem(KEY_TOKEN);
  if (token) headers.Authorization = `Bearer ${token}`;
  const init = { method, headers, signal: options.signal };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }

  let res;
  try {
    res = await fetch(path, init);
  } catch (err) {
    if (err?.name === "AbortError") throw err;
    throw new ApiError(t("common.networkError"));
  }

  const text = await res.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (res.ok) return data;

  if (res.status === 401 && path !== "/api/auth/login") {
    // Expired, ended by "sign out everywhere" or a new code, or signed out in another
    // tab: the sign-in page says so in words, never the API's developer text. Without a
    // token nobody was signed out (a host's first visit): the page just asks to sign in.
    clearAuth();
    location.assign(token || signedInAtStart ? "/login?expired=1" : loginURL());
    throw new ApiError("You are signed out. Please sign in again.", { status: 401, code: data?.error?.code || "" });
  }
  const message = data?.error?.message || t("common.httpError", { status: res.status });
  throw new ApiError(message, { status: res.status, code: data?.error?.code || "", details: data?.error?.details ?? null });
}

// login signs in with an invitation code and last name, stores the result and returns
// {token, expiresAt, role, guest}.
export async function login(code, lastName, fromLink = false) {
  clearAuth();
  const data = await api("POST", "/api/auth/login", fromLink ? { code, lastName, fromLink } : { code, lastName });
  setAuth(data);
  return data;
}

// logout forgets the token and returns to the sign-in page.
export function logout() {
  clearAuth();
  location.assign("/login");
}

// homeFor gives the page each role starts on.
export function homeFor(role) {
  return HOMES[role] || "/";
}

// returnPath is next (a path, or a link to this site) when a sign-in with role may go
// back to it, else "".
function returnPath(next, role) {
  if (!next) return "";
  let url;
  try {
    url = new URL(next, location.origin);
  } catch {
    return "";
  }
  if (url.origin !== location.origin || !RETURNS[url.pathname]?.includes(role)) return "";
  return url.pathname + url.search;
}

// landingFor is where a sign-in with role goes: the page the sign-in page was asked to go
// back to (next: /login?next=/door, the door's own link), else, for a bartender, the door
// when it was the last page this device showed, else the role's home.
export function landingFor(role, next = "") {
  const back = returnPath(next, role);
  if (back) return back;
  if (role === "bartender") {
    const last = returnPath(localStorage.getItem(KEY_LAST_PAGE) || "", role);
    if (last) return last;
  }
  return homeFor(role);
}

// rememberPage notes the signed-in page on show, for landingFor.
export function rememberPage() {
  localStorage.setItem(KEY_LAST_PAGE, location.pathname);
}

// loginURL is the sign-in page, saying why (query, "need=bartender" say) and, from a page
// a sign-in may go back to, where to go back.
function loginURL(query = "") {
  const params = new URLSearchParams(query);
  if (RETURNS[location.pathname]) params.set("next", location.pathname + location.search);
  const q = params.toString();
  return q ? `/login?${q}` : "/login";
}

// tokenExpired reads exp from the JWT so an old token is dropped before the page flashes
// up; the server still checks the signature and expiry on every call.
function tokenExpired(token) {
  try {
    const part = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    const { exp } = JSON.parse(atob(part));
    return typeof exp === "number" && exp * 1000 <= Date.now();
  } catch {
    return false;
  }
}

// requireRole returns the sign-in when its role is one of roles. Otherwise it sends the
// browser to /login (saying why) and returns null, so a page does `if (!me) return;`.
export function requireRole(...roles) {
  const me = auth();
  if (!me) {
    location.replace(loginURL());
    return null;
  }
  if (tokenExpired(me.token)) {
    clearAuth();
    location.replace(loginURL("expired=1"));
    return null;
  }
  if (roles.length > 0 && !roles.includes(me.role)) {
    location.replace(loginURL(`need=${encodeURIComponent(roles[0])}`));
    return null;
  }
  return me;
}

// displayName is how a signed-in person is shown in the page header.
export function displayName(guest) {
  if (!guest) return "";
  return [guest.firstName, guest.lastName].filter(Boolean).join(" ");
}
