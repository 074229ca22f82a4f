// An OpenAI-compatible chat-completions server on loopback (port 0) standing in for the model:
// it records every request OpenClaw sends (the prompt auto-recall built, the tool results) and
// answers with what the test's `reply(request)` returns: a text, or a tool call.
import { createServer } from "node:http";

export async function startModel(reply) {
  const requests = [];
  const server = createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    if (process.env.MODEL_STUB_LOG) console.error("model-stub", req.method, req.url, raw.slice(0, 200));
    if (req.method !== "POST" || !req.url.endsWith("/chat/completions")) {
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":{"message":"not found"}}');
      return;
    }
    const body = JSON.parse(raw);
    requests.push(body);
    // A model that never stops calling tools would keep a turn going for ever: the 20th call ends it.
    const answer = requests.length >= 20 ? { text: "Stopping here." } : ((await reply(body)) ?? { text: "OK." });
    const message = answer.tool
      ? { role: "assistant", content: null, tool_calls: [{ id: `call_${requests.length}`, type: "function", function: { name: answer.tool, arguments: JSON.stringify(answer.args ?? {}) } }] }
      : { role: "assistant", content: answer.text };
    const finish = answer.tool ? "tool_calls" : "stop";
    const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
    if (!body.stream) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: `cmpl-${requests.length}`, object: "chat.completion", created: 0, model: body.model, choices: [{ index: 0, message, finish_reason: finish }], usage }));
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const chunk = (delta, finish_reason = null, extra = {}) =>
      res.write(`data: ${JSON.stringify({ id: `cmpl-${requests.length}`, object: "chat.completion.chunk", created: 0, model: body.model, choices: [{ index: 0, delta, finish_reason }], ...extra })}\n\n`);
    if (answer.tool) {
      chunk({ role: "assistant", tool_calls: [{ index: 0, ...message.tool_calls[0] }] });
    } else {
      chunk({ role: "assistant", content: answer.text });
    }
    chunk({}, finish, { usage });
    res.end("data: [DONE]\n\n");
  });
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((done) => { server.closeAllConnections(); server.close(done); }),
  };
}

/** Everything the model was shown in one request, as one text (system, user, tool messages). */
export function shown(request) {
  return request.messages
    .map((m) => (typeof m.content === "string" ? m.content : (m.content ?? []).map((p) => p.text ?? "").join("\n")))
    .join("\n");
}
