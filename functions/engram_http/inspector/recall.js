// A recall with `debug: true`, as an agent would send it otherwise: each result with its score
// stage by stage (fusion, context bonuses, lifecycle multiplier, length norm, MMR).

import { api } from "./api.js";
import { traceChart, traceTable } from "./charts.js";
import { attempt, badge, clear, el, fixed, say } from "./dom.js";

export function recallView(open) {
  const form = document.getElementById("recall-form");
  const list = document.getElementById("recall-list");

  async function run() {
    const data = Object.fromEntries(new FormData(form));
    const body = { query: data.query, limit: Number(data.limit) || 5, debug: true };
    if (data.scope) body.scopes = [data.scope];
    const answer = await api("POST", "/v1/recall", { body });
    clear(
      list,
      answer.memories.length
        ? answer.memories.map((m, i) =>
            el(
              "li",
              { class: "memory result" },
              el("div", { class: "meta" }, badge(`#${i + 1}`), badge(`score ${fixed(m.score)}`, "score"), badge(m.scope),
                badge(m.category), badge(m.tier, `tier-${m.tier}`)),
              el("button", { type: "button", class: "link", onclick: () => open(m.id) }, m.content),
              m.trace ? el("div", { class: "trace" }, traceChart(m.trace), traceTable(m.trace)) : null,
            ),
          )
        : el("li", { class: "empty" }, "Nothing recalled."),
    );
    const total = answer.timings_ms?.total;
    say(`${answer.memories.length} recalled${total !== undefined ? ` in ${total.toFixed(1)} ms` : ""}.`);
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    attempt(run);
  });
}
