/** OpenClaw's session messages (pi-agent messages: `{role, content}` where content is a string or
 * a list of parts, text parts being `{type: "text", text}`) as the plain turns Engram retains. */

export interface Turn {
  role: "user" | "assistant";
  content: string;
}

export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => {
      if (typeof part === "string") return part;
      if (part && typeof part === "object" && (part as { type?: unknown }).type === "text") {
        const text = (part as { text?: unknown }).text;
        return typeof text === "string" ? text : "";
      }
      return "";
    })
    .filter(Boolean)
    .join("\n");
}

/** The user and assistant text turns of `messages`, in order (tool calls and results left out). */
export function turnsOf(messages: readonly unknown[]): Turn[] {
  const turns: Turn[] = [];
  for (const message of messages) {
    if (!message || typeof message !== "object") continue;
    const { role, content } = message as { role?: unknown; content?: unknown };
    if (role !== "user" && role !== "assistant") continue;
    const text = stripRecalled(textOf(content)).trim();
    if (text) turns.push({ role, content: text });
  }
  return turns;
}

/** The last exchange: the last user turn and every assistant turn after it. */
export function lastExchange(messages: readonly unknown[]): Turn[] {
  const turns = turnsOf(messages);
  let start = -1;
  for (let n = turns.length - 1; n >= 0; n--) {
    if (turns[n]?.role === "user") {
      start = n;
      break;
    }
  }
  return start < 0 ? [] : turns.slice(start);
}

export const RECALL_OPEN = "<engram-memories>";
export const RECALL_CLOSE = "</engram-memories>";

/** A text without the memories auto-recall put before it (they are not retained a second time). */
export function stripRecalled(text: string): string {
  const pattern = new RegExp(`${RECALL_OPEN}[\\s\\S]*?${RECALL_CLOSE}\\s*`, "g");
  return text.replace(pattern, "");
}

const WORD = /[\p{L}\p{N}]{4,}/gu;

/** Whether an answer used a memory: at least half of the memory's distinct words of four letters
 * or more (and at least two of them) appear in the answer. */
export function answerUses(answer: string, memory: string): boolean {
  const said = new Set(answer.toLowerCase().match(WORD) ?? []);
  const words = [...new Set(memory.toLowerCase().match(WORD) ?? [])];
  if (words.length === 0) return false;
  const shared = words.filter((w) => said.has(w)).length;
  return shared >= Math.min(2, words.length) && shared * 2 >= words.length;
}
