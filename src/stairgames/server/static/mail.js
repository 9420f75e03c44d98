// The pages of the links in mails (server/mail/routes.py): every text is in the page,
// in its reader's language; this script only sends what a button asks (JSON, like every
// other change) and shows the paragraph that says how it went.
const JSON_HEADERS = { "content-type": "application/json" };
const params = new URLSearchParams(location.search);
const token = params.get("token") || "";

function $(id) {
  return document.getElementById(id);
}

function show(id, shown = true) {
  const element = $(id);
  if (element) element.hidden = !shown;
}

// The site's language, where the page was opened without one: ask for it again.
function followLanguage() {
  const saved = localStorage.getItem("stairgames.lang");
  if (saved && !params.has("lang") && saved !== document.documentElement.lang) {
    params.set("lang", saved);
    location.replace(`${location.pathname}?${params}`);
    return true;
  }
  return false;
}

// POST a JSON body: [ok, reply].
async function send(url, body) {
  try {
    const response = await fetch(url, { method: "POST", headers: JSON_HEADERS,
      body: JSON.stringify(body) });
    return [response.ok, await response.json()];
  } catch (error) {
    return [false, null];
  }
}

// A page whose one button uses the link's token (confirm an address, unsubscribe).
function oneButton(url) {
  $("act").addEventListener("click", async () => {
    $("act").disabled = true;
    const [ok] = await send(url, { token });
    show("done", ok);
    show("failed", !ok);
  });
}

function resetPage() {
  $("reset").addEventListener("submit", async (event) => {
    event.preventDefault();
    const [ok, reply] = await send("/api/account/reset/confirm",
      { token, password: $("password").value });
    const badLink = !ok && reply && reply.error && reply.error.id === "this link is no longer valid";
    show("done", ok);
    show("failed", badLink);
    show("bad-password", !ok && !badLink);
    if (ok) $("reset").hidden = true;
  });
}

function showAccount(account) {
  show("no-mail", !account.mail && !account.email);
  show("email", account.mail || Boolean(account.email));
  const email = account.email;
  if (email && document.activeElement !== $("address")) $("address").value = email.address;
  show("unconfirmed", Boolean(email) && !email.confirmed);
  show("confirmed", Boolean(email) && email.confirmed);
  show("remove", Boolean(email));
  show("notifications-label", Boolean(email));
  $("notifications").checked = Boolean(email && email.notifications);
}

async function accountPage() {
  const lang = document.documentElement.lang;
  let account = null;
  try {
    const response = await fetch("/api/account");
    if (response.ok) account = await response.json();
  } catch (error) {
    account = null;
  }
  if (!account || !account.account) {
    show("no-account", true);
    show("forgot", true);
  } else {
    showAccount(account);
  }
  const failed = (reply) => {
    const badAddress = reply && reply.error && reply.error.id === "that is not an e-mail address";
    show("bad-address", badAddress);
    show("error", !badAddress);
  };
  $("address-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const [ok, reply] = await send("/api/account/email", { address: $("address").value, lang });
    show("bad-address", false);
    show("error", false);
    if (!ok) return failed(reply);
    showAccount(reply);
    show("sent", reply.sent);
  });
  $("remove").addEventListener("click", async () => {
    const [ok, reply] = await send("/api/account/email", { address: null });
    if (!ok) return failed(reply);
    $("address").value = "";
    showAccount(reply);
    show("sent", false);
  });
  $("notifications").addEventListener("change", async () => {
    const [ok, reply] = await send("/api/account/notifications",
      { on: $("notifications").checked, lang });
    if (!ok) return failed(reply);
    showAccount(reply);
  });
  $("forgot-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const [ok] = await send("/api/account/reset", { name: $("forgot-name").value });
    show("forgot-sent", ok);
    show("no-mail", !ok);
  });
}

if (!followLanguage()) {
  const page = document.body.dataset.page;
  if (page === "confirm") oneButton("/api/account/email/confirm");
  else if (page === "unsubscribe") oneButton("/api/unsubscribe");
  else if (page === "reset") resetPage();
  else if (page === "account") accountPage();
}
