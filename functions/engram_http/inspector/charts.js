// Small SVG charts: a recall result's score stage by stage, and a memory's lifecycle outlook.
// Neither computes a formula: the trace and the outlook come from the engine (recall's `debug`
// trace, GET /v1/memories/{id}'s `lifecycle.outlook`); the stages here are the trace's own factors.

import { el, fixed, plural, svg } from "./dom.js";

/** The stages of one recalled memory's score: [label, value after the stage, factor or null].
 * The factors are the ones ranking multiplies (the trace's `prior`, `length_norm`, `brevity`),
 * so the values multiply out: fused × prior × length norm × brevity = final. */
export function stages(trace) {
  const rows = [];
  const fusion = trace.fusion_score ?? trace.fused;
  rows.push([`fusion (${trace.fusion || "—"})`, fusion, null]);
  let value = trace.fused;
  const context = [];
  if (trace.in_time_window !== undefined) context.push(trace.in_time_window ? "time window" : "outside window");
  if (trace.entity_share !== undefined) context.push(`entities ${fixed(trace.entity_share, 2)}`);
  if (trace.neighbour_of) context.push("session neighbour");
  if (context.length || value !== fusion) rows.push([`context: ${context.join(", ") || "bonus"}`, value, null]);
  if (trace.reranked !== undefined) {
    value = trace.reranked;
    const judged = typeof trace.rerank === "number" ? `rerank ${fixed(trace.rerank)}, blended` : `rerank: ${trace.rerank}`;
    rows.push([judged, value, null]);
  } else if (trace.rerank !== undefined) rows.push([`rerank: ${trace.rerank}`, null, null]);
  // The prior ranking uses (the lifecycle multiplier, bounded by the lifecycle weight), not the
  // multiplier itself: the chart shows what the score was multiplied by.
  const prior = trace.prior ?? trace.lifecycle?.multiplier;
  if (prior !== undefined) {
    value = value * prior;
    rows.push(["× lifecycle prior", value, prior]);
  }
  if (trace.length_norm !== undefined) {
    value = value * trace.length_norm;
    rows.push(["× length norm", value, trace.length_norm]);
  }
  if (trace.brevity !== undefined) rows.push(["× brevity = final", trace.final, trace.brevity]);
  return rows;
}

export function traceChart(trace) {
  const rows = stages(trace);
  const top = Math.max(0.0001, ...rows.map(([, v]) => v || 0));
  const rowHeight = 20;
  const width = 360;
  const labelWidth = 150;
  const noteWidth = 86; // room for "0.906 (×0.921)" after the longest bar
  const barSpace = width - labelWidth - noteWidth;
  const chart = svg("svg", {
    viewBox: `0 0 ${width} ${rows.length * rowHeight + 4}`,
    class: "chart trace",
    role: "img",
    "aria-label": `score by stage: ${rows.map(([l, v]) => `${l} ${fixed(v)}`).join("; ")}`,
  });
  rows.forEach(([label, value, factor], i) => {
    const y = i * rowHeight + 2;
    chart.append(svg("text", { x: 0, y: y + 14, class: "label" }, label));
    if (value !== null && value !== undefined) {
      const w = Math.max(1, (value / top) * barSpace);
      chart.append(svg("rect", { x: labelWidth, y: y + 3, width: w.toFixed(1), height: 13, class: `bar s${i}` }));
      const note = factor === null ? fixed(value) : `${fixed(value)} (×${fixed(factor)})`;
      chart.append(svg("text", { x: labelWidth + w + 4, y: y + 14, class: "value" }, note));
    }
  });
  return chart;
}

/** The trace's raw values, for reading (and for screen readers). */
export function traceTable(trace) {
  const life = trace.lifecycle || {};
  const facts = [
    ["cosine", fixed(trace.cosine)],
    ["vector rank", trace.vector_rank ?? "—"],
    ["BM25", fixed(trace.bm25)],
    ["BM25 rank", trace.bm25_rank ?? "—"],
    ["retention R", fixed(life.retention)],
    // ranking leaves the access frequency out of C (the memory view's C counts it, as tiering does)
    ["composite C as ranked (access left out)", fixed(life.composite)],
    ["lifecycle prior", fixed(trace.prior)],
    ["MMR rank", trace.mmr_rank ?? "—"],
  ];
  return el("dl", { class: "facts" }, facts.map(([k, v]) => [el("dt", {}, k), el("dd", {}, String(v))]));
}

/** Retention and composite over the coming days (no further access), and the next tier move. */
export function lifecycleChart(outlook) {
  const points = outlook.points || [];
  const last = points.length ? points[points.length - 1].day : 1;
  const width = 320;
  const height = 140;
  const pad = { left: 28, right: 8, top: 8, bottom: 22 };
  const x = (day) => pad.left + (day / last) * (width - pad.left - pad.right);
  const y = (v) => pad.top + (1 - v) * (height - pad.top - pad.bottom);
  const line = (key) => points.map((p) => `${x(p.day).toFixed(1)},${y(p[key]).toFixed(1)}`).join(" ");
  const move = outlook.next_move;
  const chart = svg(
    "svg",
    {
      viewBox: `0 0 ${width} ${height}`,
      class: "chart lifecycle",
      role: "img",
      "aria-label": move
        ? `retention over ${plural(last, "day")}; moves to ${move.to_tier} in ${plural(move.in_days, "day")}`
        : `retention over ${plural(last, "day")}; no tier move`,
    },
    svg("line", { x1: pad.left, y1: y(0), x2: width - pad.right, y2: y(0), class: "axis" }),
    svg("line", { x1: pad.left, y1: y(0), x2: pad.left, y2: y(1), class: "axis" }),
    svg("text", { x: 2, y: y(1) + 4, class: "tick" }, "1"),
    svg("text", { x: 2, y: y(0) + 4, class: "tick" }, "0"),
    svg("text", { x: pad.left, y: height - 6, class: "tick" }, "today"),
    svg("text", { x: width - pad.right, y: height - 6, class: "tick end" }, `+${last} d`),
    svg("polyline", { points: line("retention"), class: "retention" }),
    svg("polyline", { points: line("composite"), class: "composite" }),
  );
  if (move && move.in_days <= last) {
    chart.append(svg("line", { x1: x(move.in_days), y1: y(0), x2: x(move.in_days), y2: y(1), class: "move" }));
    chart.append(svg("text", { x: x(move.in_days) + 3, y: y(1) + 10, class: "tick" }, `→ ${move.to_tier}`));
  }
  return chart;
}
