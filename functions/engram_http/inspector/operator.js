// The operator's view (operator token): tenants, one tenant's usage and keys, new keys (the
// secret is shown once, here, and never again), revocation.

import { api, part } from "./api.js";
import { attempt, badge, clear, el, plural, say, when } from "./dom.js";

function table(headers, rows) {
  return el(
    "table",
    {},
    el("thead", {}, el("tr", {}, headers.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows),
  );
}

export function operatorView() {
  const tenants = document.getElementById("tenant-list");
  const detail = document.getElementById("tenant-detail");
  const createTenant = document.getElementById("tenant-form");

  async function refresh() {
    await attempt(async () => {
      const answer = await api("GET", "/v1/admin/tenants");
      clear(
        tenants,
        table(
          ["Tenant", "Name", "Created", ""],
          answer.tenants.map((t) =>
            el("tr", {}, el("td", {}, t.tenant_id), el("td", {}, t.name), el("td", {}, when(t.created_at)),
              el("td", {}, el("button", { type: "button", onclick: () => attempt(() => show(t.tenant_id)) }, `Open ${t.tenant_id}`))),
          ),
        ),
      );
      say(`${plural(answer.tenants.length, "tenant")}.`);
    });
  }

  function keyRow(tenant, key) {
    const state = key.revoked_at ? badge("revoked", "warn") : badge("active");
    return el(
      "tr",
      {},
      el("td", {}, el("code", {}, key.display_prefix)),
      el("td", {}, key.scopes.join(", ") || "every scope"),
      el("td", {}, key.read_only ? "read only" : "read/write"),
      el("td", {}, when(key.created_at)),
      el("td", {}, when(key.last_used_at)),
      el("td", {}, key.expires_at ? when(key.expires_at) : "never"),
      el("td", {}, state),
      el("td", {}, key.revoked_at ? null : el("button", { type: "button", class: "danger", onclick: () => attempt(async () => {
        await api("DELETE", `/v1/admin/keys/${part(key.key_id)}`);
        say(`Key ${key.display_prefix} revoked.`);
        await show(tenant);
      }) }, `Revoke ${key.display_prefix}`)),
    );
  }

  function keyForm(tenant) {
    const scopes = el("input", { id: "key-scopes", placeholder: "user:ann, team:x (empty: every scope)" });
    const readOnly = el("input", { id: "key-read-only", type: "checkbox" });
    const days = el("input", { id: "key-days", type: "number", min: 1, step: 1, placeholder: "never" });
    const secret = el("div", { id: "new-key", "aria-live": "polite" });
    const form = el(
      "form",
      {
        class: "row",
        onsubmit: (event) => {
          event.preventDefault();
          attempt(async () => {
            const body = { scopes: scopes.value.split(",").map((s) => s.trim()).filter(Boolean), read_only: readOnly.checked };
            if (days.value) body.expires_in_days = Number(days.value);
            const key = await api("POST", `/v1/admin/tenants/${part(tenant)}/keys`, { body });
            await show(tenant);
            const place = document.getElementById("new-key");
            clear(place, el("p", { class: "warn" }, "Copy this key now: it is shown only once."),
              el("output", { id: "new-key-secret", class: "secret" }, key.api_key));
          });
        },
      },
      el("label", { for: "key-scopes" }, "Scopes"), scopes,
      el("label", { for: "key-read-only" }, readOnly, " read only"),
      el("label", { for: "key-days" }, "Expires in days"), days,
      el("button", { type: "submit" }, "Create key"),
    );
    return [form, secret];
  }

  async function show(tenant) {
    const t = await api("GET", `/v1/admin/tenants/${part(tenant)}`);
    clear(
      detail,
      el("h3", {}, `${t.tenant_id} — ${t.name}`),
      el("dl", { class: "facts" },
        [["memories", t.total], ["storage", `${(t.storage_bytes / 1024).toFixed(1)} KiB`],
          ...Object.entries(t.by_tier).map(([k, v]) => [`tier ${k}`, v]),
          ...Object.entries(t.usage).map(([k, v]) => [k.replaceAll("_", " "), v])]
          .map(([k, v]) => [el("dt", {}, k), el("dd", {}, String(v))])),
      el("h4", {}, "Keys"),
      table(["Prefix", "Scopes", "Access", "Created", "Last used", "Expires", "State", ""], t.keys.map((k) => keyRow(tenant, k))),
      keyForm(tenant),
    );
  }

  createTenant.addEventListener("submit", (event) => {
    event.preventDefault();
    attempt(async () => {
      const data = Object.fromEntries(new FormData(createTenant));
      await api("POST", "/v1/admin/tenants", { body: { tenant_id: data.tenant_id, ...(data.name ? { name: data.name } : {}) } });
      createTenant.reset();
      await refresh();
      await show(data.tenant_id);
    });
  });
  return { refresh };
}
