// The inspector: log in with a tenant key (memories, recall, quarantine) or the operator token
// (tenants and keys), then switch between the views.

import { ApiError, api, clearCredential, credential, saveCredential } from "./api.js";
import { detailView } from "./detail.js";
import { say } from "./dom.js";
import { memoriesView, quarantineView } from "./memories.js";
import { operatorView } from "./operator.js";
import { recallView } from "./recall.js";

const VIEWS = { tenant: ["memories", "recall", "quarantine"], operator: ["operator"] };

let memories = null;
let quarantine = null;

async function changed() {
  await Promise.all([memories.refresh(), quarantine.refresh()]);
}

const detail = detailView(changed);
memories = memoriesView(detail.open);
quarantine = quarantineView(detail.open, changed);
recallView(detail.open);
const operator = operatorView();

function show(view) {
  for (const button of document.querySelectorAll("#tabs button")) {
    button.setAttribute("aria-current", String(button.dataset.view === view));
  }
  for (const section of document.querySelectorAll("[data-view-panel]")) {
    section.hidden = section.dataset.viewPanel !== view;
  }
}

function enter(role) {
  const views = VIEWS[role];
  document.getElementById("login").hidden = true;
  document.getElementById("logout").hidden = false;
  document.getElementById("tabs").hidden = false;
  for (const button of document.querySelectorAll("#tabs button")) {
    button.hidden = !views.includes(button.dataset.view);
  }
  show(views[0]);
  if (role === "operator") operator.refresh();
  else changed();
}

function leave() {
  clearCredential();
  for (const section of document.querySelectorAll("[data-view-panel]")) section.hidden = true;
  document.getElementById("tabs").hidden = true;
  document.getElementById("logout").hidden = true;
  document.getElementById("login").hidden = false;
  document.getElementById("key").value = "";
  say("Logged out; the key is gone from this tab.");
  document.getElementById("key").focus();
}

document.getElementById("login-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const secret = document.getElementById("key").value.trim();
  const role = document.querySelector('input[name="role"]:checked').value;
  try {
    await api("GET", role === "operator" ? "/v1/admin/tenants" : "/v1/stats", { secret });
  } catch (error) {
    const why = error instanceof ApiError && error.status === 401 ? "this key is not valid" : error.message;
    say(`Log in failed: ${why}.`, "error");
    return;
  }
  saveCredential(secret, role);
  document.getElementById("key").value = "";
  say(""); // a failed attempt's message must not outlive the login that worked
  enter(role);
});

document.getElementById("logout").addEventListener("click", leave);
for (const button of document.querySelectorAll("#tabs button")) {
  button.addEventListener("click", () => {
    say("");
    show(button.dataset.view);
    if (button.dataset.view === "quarantine") quarantine.refresh();
  });
}

const saved = credential();
if (saved) enter(saved.role);
