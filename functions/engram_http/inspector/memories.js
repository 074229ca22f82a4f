// Browsing: the filters (with counts from GET /v1/stats), pages of GET /v1/memories, and the
// review of quarantined memories (release or open them).

import { api, part } from "./api.js";
import { attempt, badge, clear, el, options, say, when } from "./dom.js";

const PAGE = 20;

function summary(memory, open) {
  return el(
    "li",
    { class: "memory" },
    el("button", { type: "button", class: "link", onclick: () => open(memory.id) }, memory.content),
    el(
      "div",
      { class: "meta" },
      badge(memory.scope),
      badge(memory.category),
      badge(memory.tier, `tier-${memory.tier}`),
      memory.status !== "active" ? badge(memory.status, "warn") : null,
      memory.pinned ? badge("pinned", "pin") : null,
      memory.tags.map((tag) => badge(`#${tag}`, "tag")),
      el("span", { class: "when" }, when(memory.created_at)),
    ),
  );
}

export function memoriesView(open) {
  const form = document.getElementById("filters");
  const list = document.getElementById("memory-list");
  const more = document.getElementById("more");
  const counts = document.getElementById("counts");
  let cursor = null;
  let total = "";
  let latest = 0; // the newest listing asked for

  async function stats() {
    const s = await api("GET", "/v1/stats");
    options(form.elements.scope, s.by_scope, "any scope");
    options(form.elements.category, s.by_category, "any category");
    options(form.elements.tier, s.by_tier, "any tier");
    options(form.elements.status, s.by_status, "any status");
    document.getElementById("review-count").textContent = String(s.by_status.quarantined || 0);
    total = `${s.total} memories in ${Object.keys(s.by_scope).length} scopes`;
    return s;
  }

  async function page(reset) {
    if (reset) {
      cursor = null;
      clear(list);
    }
    const asked = ++latest; // a later listing makes this one's answer stale
    const query = Object.fromEntries(new FormData(form));
    const answer = await api("GET", "/v1/memories", { query: { ...query, cursor, limit: PAGE } });
    if (asked !== latest) return;
    list.append(...answer.memories.map((m) => summary(m, open)));
    cursor = answer.next_cursor;
    more.hidden = !cursor;
    const shown = list.children.length;
    counts.textContent = `${total} · ${shown} shown${cursor ? " (more below)" : ""}`;
    if (!shown) list.append(el("li", { class: "empty" }, "No memories match these filters."));
  }

  async function refresh() {
    await attempt(async () => {
      await stats();
      await page(true);
    });
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    attempt(() => page(true));
  });
  form.addEventListener("reset", () => setTimeout(() => attempt(() => page(true))));
  more.addEventListener("click", () => attempt(() => page(false)));
  return { refresh };
}

export function quarantineView(open, changed) {
  const list = document.getElementById("quarantine-list");

  async function release(id) {
    await api("POST", `/v1/memories/${part(id)}/release`);
    await changed();
    say(`Released ${id}: it is recalled again.`);
  }

  async function refresh() {
    await attempt(async () => {
      const answer = await api("GET", "/v1/memories", { query: { status: "quarantined", limit: 100 } });
      clear(
        list,
        answer.memories.length
          ? answer.memories.map((m) => {
              const item = summary(m, open);
              item.append(
                el(
                  "div",
                  { class: "actions" },
                  el("button", { type: "button", onclick: () => attempt(() => release(m.id)) }, "Release"),
                  el("button", { type: "button", onclick: () => open(m.id) }, "Review…"),
                ),
              );
              return item;
            })
          : el("li", { class: "empty" }, "Nothing is quarantined."),
      );
    });
  }
  return { refresh };
}
