// Building the page from data. Every string goes in as a text node or an attribute value, never
// as markup: memory text cannot become HTML here, whatever it contains.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function set(node, props) {
  for (const [name, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "text") node.textContent = String(value);
    else if (name === "class") node.setAttribute("class", value);
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  return node;
}

/** An HTML element: el("button", {type: "button", onclick: f}, "Pin"). */
export function el(tag, props = {}, ...children) {
  return fill(set(document.createElement(tag), props), children);
}

/** An SVG element, the same way. */
export function svg(tag, props = {}, ...children) {
  return fill(set(document.createElementNS(SVG_NS, tag), props), children);
}

export function clear(node, ...children) {
  node.replaceChildren();
  return fill(node, children);
}

/** The page's status line (a polite live region); errors are marked as such. */
export function say(message, kind = "info") {
  const status = document.getElementById("status");
  status.textContent = message;
  status.dataset.kind = kind;
}

/** Run an action; its error (an ApiError or any other) goes to the status line. */
export async function attempt(action) {
  try {
    return await action();
  } catch (error) {
    say(error.message || String(error), "error");
    return undefined;
  }
}

export function when(iso) {
  if (!iso) return "—";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? String(iso) : date.toISOString().replace("T", " ").slice(0, 16) + " UTC";
}

/** A count with its noun in the right number: plural(1, "day") is "1 day", plural(2, "day") "2 days". */
export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

export function fixed(value, digits = 3) {
  return typeof value === "number" ? value.toFixed(digits) : "—";
}

/** A label and a select of options with counts ("user:ann (12)"), the first meaning "any". */
export function options(select, counts, anyLabel) {
  const current = select.value;
  clear(
    select,
    el("option", { value: "" }, anyLabel),
    Object.entries(counts || {})
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([value, count]) => el("option", { value }, `${value} (${count})`)),
  );
  select.value = [...select.options].some((o) => o.value === current) ? current : "";
}

export function badge(text, kind = "") {
  return el("span", { class: `badge ${kind}`.trim() }, text);
}
