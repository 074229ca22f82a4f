// One memory in a dialog: content, L0/L1, lifecycle outlook, history chain, and the actions
// (pin, tags, metadata, restore, release, forget with a dry run first and the receipt after).

import { api, part } from "./api.js";
import { lifecycleChart } from "./charts.js";
import { attempt, badge, clear, el, fixed, plural, say, when } from "./dom.js";

function section(title, ...children) {
  return el("section", { class: "block" }, el("h3", {}, title), ...children);
}

/** What the next lifecycle run does to the memory, in words ("stays" is the API's "no move"). */
function nextRun(life) {
  if (life.next === null || life.next === undefined) return "no lifecycle move (not active)";
  return life.next === "stays" ? `stays ${life.tier}` : life.next;
}

function lifecycleBlock(life, memory) {
  if (!life) return null;
  const outlook = life.outlook;
  const move = outlook?.next_move;
  // a move the next run makes is said once, above; the outlook's first move would be that one
  const movesNow = life.next !== "stays" && life.next !== null && life.next !== undefined;
  return section(
    "Lifecycle",
    el(
      "dl",
      { class: "facts" },
      [
        ["retention R", fixed(life.retention)],
        ["frequency F", fixed(life.frequency)],
        ["importance I", fixed(life.importance)],
        ["composite C (access counted, as tiering uses it)", fixed(life.composite)],
        ["recall multiplier", fixed(life.multiplier)],
        ["feedback weight", fixed(memory.feedback_weight)],
        ["accessed", `${memory.access_count}× (last ${when(memory.last_accessed_at)})`],
      ].map(([k, v]) => [el("dt", {}, k), el("dd", {}, v)]),
    ),
    el("p", {}, `Why ${life.tier}: ${life.why}`),
    el("p", {}, `At the next lifecycle run: ${nextRun(life)}`),
    outlook ? lifecycleChart(outlook) : null,
    outlook
      ? el(
          "p",
          { class: "legend" },
          el("span", { class: "key retention" }, "retention"),
          " ",
          el("span", { class: "key composite" }, "composite"),
          ` — ${outlook.assumes}. `,
          movesNow
            ? "The move above comes first; the curves start from today's values."
            : move
              ? `Next move in ${plural(move.in_days, "day")}: ${life.tier} → ${move.to_tier}, ${move.reason}.`
              : "No tier move within this horizon.",
        )
      : null,
  );
}

function historyBlock(history) {
  return section(
    "History",
    el(
      "ol",
      { class: "history", id: "history" },
      (history || []).map((h) =>
        el(
          "li",
          {},
          el("div", { class: "meta" }, badge(`v${h.version}`), badge(h.event), el("span", { class: "when" }, when(h.at))),
          el("p", { class: "content" }, h.content),
          Object.keys(h.detail || {}).length ? el("code", { class: "detail" }, JSON.stringify(h.detail)) : null,
        ),
      ),
    ),
  );
}

export function detailView(changed) {
  const dialog = document.getElementById("detail");
  const body = document.getElementById("detail-body");
  let current = null;

  async function patch(fields, done) {
    await api("PATCH", `/v1/memories/${part(current.id)}`, { body: fields });
    await changed();
    await open(current.id);
    say(done); // once the view shows the change
  }

  function editors(memory) {
    const tags = el("input", { id: "edit-tags", value: memory.tags.join(", "), "aria-describedby": "tags-hint" });
    const metadata = el("textarea", { id: "edit-metadata", rows: 3 }, JSON.stringify(memory.metadata, null, 1));
    return section(
      "Tags and metadata",
      el(
        "form",
        {
          class: "row",
          onsubmit: (event) => {
            event.preventDefault();
            const list = tags.value.split(",").map((t) => t.trim()).filter(Boolean);
            attempt(() => patch({ tags: list }, "Tags saved."));
          },
        },
        el("label", { for: "edit-tags" }, "Tags"),
        tags,
        el("button", { type: "submit" }, "Save tags"),
        el("small", { id: "tags-hint" }, "comma separated"),
      ),
      el(
        "form",
        {
          class: "row",
          onsubmit: (event) => {
            event.preventDefault();
            attempt(() => patch({ metadata: JSON.parse(metadata.value || "{}") }, "Metadata saved."));
          },
        },
        el("label", { for: "edit-metadata" }, "Metadata (JSON)"),
        metadata,
        el("button", { type: "submit" }, "Save metadata"),
      ),
    );
  }

  function forgetFlow(memory, place) {
    const start = async () => {
      const dry = await api("POST", "/v1/forget", { body: { ids: [memory.id], dry_run: true } });
      clear(
        place,
        el("p", { class: "warn", id: "dry-run" }, `Dry run: this would delete ${dry.would_delete.length} memory (${dry.would_delete.join(", ") || "none"}). Nothing is deleted yet.`),
        el("button", { type: "button", class: "danger", onclick: () => attempt(confirm) }, "Forget for good"),
        el("button", { type: "button", onclick: () => clear(place) }, "Keep it"),
      );
      place.querySelector("button").focus();
    };
    const confirm = async () => {
      const done = await api("POST", "/v1/forget", { body: { ids: [memory.id] } });
      clear(body, el("p", { id: "receipt", class: "receipt" }, `Forgotten: ${done.deleted.length} deleted. Receipt ${done.receipt_id}.`));
      say(`Forgotten; receipt ${done.receipt_id}.`);
      current = null;
      await changed();
    };
    return start;
  }

  function actions(memory) {
    const place = el("div", { class: "confirm" });
    const restoreTier = el("select", { id: "restore-tier", "aria-label": "tier to restore to" },
      ["peripheral", "working", "core"].map((t) => el("option", { value: t }, t)));
    return section(
      "Actions",
      el(
        "div",
        { class: "actions" },
        el("button", { type: "button", onclick: () => attempt(() => patch({ pinned: !memory.pinned }, memory.pinned ? "Unpinned." : "Pinned.")) },
          memory.pinned ? "Unpin" : "Pin"),
        memory.tier === "archived" || memory.status === "archived"
          ? [restoreTier, el("button", { type: "button", onclick: () => attempt(async () => {
              await api("POST", `/v1/memories/${part(memory.id)}/restore`, { body: { tier: restoreTier.value } });
              await changed();
              await open(memory.id);
              say(`Restored to ${restoreTier.value}.`);
            }) }, "Restore")]
          : null,
        memory.status === "quarantined"
          ? el("button", { type: "button", onclick: () => attempt(async () => {
              await api("POST", `/v1/memories/${part(memory.id)}/release`);
              await changed();
              await open(memory.id);
              say("Released: it is recalled again.");
            }) }, "Release")
          : null,
        el("button", { type: "button", class: "danger", onclick: () => attempt(forgetFlow(memory, place)) }, "Forget…"),
      ),
      place,
    );
  }

  function render(memory) {
    clear(
      body,
      el("div", { class: "meta" }, badge(memory.scope), badge(memory.category), badge(memory.tier, `tier-${memory.tier}`),
        badge(memory.status, memory.status === "active" ? "" : "warn"), memory.pinned ? badge("pinned", "pin") : null,
        badge(memory.trust), el("span", { class: "when" }, `v${memory.version} · ${when(memory.created_at)}`)),
      el("p", { class: "content", id: "detail-content" }, memory.content),
      memory.abstract ? el("p", {}, el("strong", {}, "L0 "), memory.abstract) : null,
      memory.overview ? el("p", {}, el("strong", {}, "L1 "), memory.overview) : null,
      memory.key_facts.length ? el("ul", {}, memory.key_facts.map((f) => el("li", {}, f))) : null,
      memory.supersedes || memory.superseded_by
        ? el("p", { class: "meta" }, memory.supersedes ? `supersedes ${memory.supersedes} ` : "", memory.superseded_by ? `superseded by ${memory.superseded_by}` : "")
        : null,
      actions(memory),
      editors(memory),
      lifecycleBlock(memory.lifecycle, memory),
      historyBlock(memory.history),
    );
  }

  async function open(id) {
    await attempt(async () => {
      const memory = await api("GET", `/v1/memories/${part(id)}`, { query: { history: "true" } });
      current = memory;
      document.getElementById("detail-title").textContent = memory.id;
      render(memory);
      if (!dialog.open) dialog.showModal();
    });
  }

  document.getElementById("detail-close").addEventListener("click", () => dialog.close());
  return { open };
}
