/**
 * @module GET /chat: a small, self-contained chat page (no external assets). The person enters
 * the bearer token once (kept in localStorage), types, and sees the answer, the tool calls as
 * they happen (the page asks /api/chat for text/event-stream) and the generated images. The
 * history lives in the page. Served without auth: it holds no data and no secret.
 */
import type { Context } from "hono";

const STYLE = `
*{box-sizing:border-box}html,body{margin:0;height:100%}
body{font:16px/1.5 system-ui,sans-serif;background:#f4f2f8;color:#1d1b22;display:flex;flex-direction:column;height:100dvh}
header{display:flex;gap:.5rem;align-items:center;padding:.5rem .75rem;background:#2d1f4f;color:#fff}
header h1{font-size:1.05rem;margin:0;flex:1}
button{font:inherit;border:0;border-radius:.5rem;padding:.5rem .9rem;background:#6a4bc4;color:#fff;cursor:pointer}
button.ghost{background:transparent;border:1px solid #ffffff88}button:disabled{opacity:.5}
main{flex:1;overflow-y:auto;padding:.75rem;display:flex;flex-direction:column;gap:.75rem;max-width:52rem;width:100%;margin:0 auto}
.msg{padding:.6rem .8rem;border-radius:.75rem;max-width:92%;white-space:pre-wrap;word-wrap:break-word}
.user{align-self:flex-end;background:#6a4bc4;color:#fff}.model{align-self:flex-start;background:#fff;box-shadow:0 1px 3px #0002}
.error{align-self:stretch;background:#fde8e8;color:#8a1c1c}
.tools{margin:0 0 .4rem;padding-left:1.1rem;font-size:.85rem;color:#5b5570}.tools:empty{display:none}
.images{display:flex;flex-wrap:wrap;gap:.5rem;margin-top:.5rem}.images img{max-width:100%;border-radius:.5rem}
form{display:flex;gap:.5rem;padding:.6rem .75rem;background:#fff;border-top:1px solid #ddd;max-width:52rem;width:100%;margin:0 auto}
textarea,input{flex:1;font:inherit;padding:.5rem;border:1px solid #bbb;border-radius:.5rem;min-width:0}
textarea{resize:none;height:3.2rem}
#token-view{padding:1.5rem .75rem;max-width:30rem;margin:0 auto;width:100%}#token-view form{padding:0;border:0;background:none}
#chat-view{display:contents}[hidden]{display:none!important}
`;

const SCRIPT = `
const KEY = "mcp-chat-token";
const $ = (id) => document.getElementById(id);
let history = [];
function showToken(note) {
  $("token-view").hidden = false; $("chat-view").hidden = true;
  $("token-note").textContent = note || "";
  $("token-input").value = localStorage.getItem(KEY) || ""; $("token-input").focus();
}
function showChat() { $("token-view").hidden = true; $("chat-view").hidden = false; $("message").focus(); }
function el(tag, cls, text) { const e = document.createElement(tag); if (cls) e.className = cls; if (text) e.textContent = text; return e; }
function add(cls, text) { const m = el("div", "msg " + cls, text); $("log").append(m); m.scrollIntoView({ block: "end" }); return m; }
function short(v) { const s = JSON.stringify(v); return s.length > 80 ? s.slice(0, 77) + "..." : s; }
async function* sse(res) {
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buf += value.replace(/\\r/g, "");
    let i;
    while ((i = buf.indexOf("\\n\\n")) >= 0) {
      const block = buf.slice(0, i); buf = buf.slice(i + 2);
      let event = "message", data = "";
      for (const line of block.split("\\n")) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data += line.slice(5).trim();
      }
      if (data) yield { event, data: JSON.parse(data) };
    }
  }
}
async function send(text) {
  add("user", text);
  const reply = add("model", "");
  const tools = el("ul", "tools"); const body = el("div", "text", "…"); const images = el("div", "images");
  reply.append(tools, body, images);
  const items = new Map();
  $("send").disabled = true;
  try {
    const res = await fetch("/api/chat", {
      method: "POST",
      headers: { "Authorization": "Bearer " + localStorage.getItem(KEY), "Content-Type": "application/json", "Accept": "text/event-stream" },
      body: JSON.stringify({ message: text, history }),
    });
    if (res.status === 401) { reply.remove(); showToken("The token was refused. Enter it again."); return; }
    if (!res.ok) { const e = await res.json().catch(() => ({})); throw new Error(e.error || "HTTP " + res.status); }
    for await (const { event, data } of sse(res)) {
      if (event === "tool_call") { const li = el("li", "", data.name + " " + short(data.args)); tools.append(li); items.set(data.round + "." + data.call, li); }
      else if (event === "tool_result") { const li = items.get(data.round + "." + data.call); if (li) li.textContent += data.ok ? " ✓ " + (data.images ? data.images + " image(s)" : "") : " ✗ " + data.summary; }
      else if (event === "image_generation") { body.textContent = "Generating an image with " + data.model + "…"; }
      else if (event === "error") throw new Error(data.error);
      else if (event === "done") {
        body.textContent = data.text || (data.images.length ? "" : "(no text)");
        for (const img of data.images) { const i = el("img"); i.alt = "generated image"; i.src = "data:" + img.mimeType + ";base64," + img.data; images.append(i); }
        history.push({ role: "user", text }, { role: "model", text: data.text || "" });
      }
      reply.scrollIntoView({ block: "end" });
    }
  } catch (err) {
    reply.className = "msg error"; body.textContent = "Error: " + err.message;
  } finally { $("send").disabled = false; }
}
$("token-form").addEventListener("submit", (e) => {
  e.preventDefault(); const t = $("token-input").value.trim();
  if (t) { localStorage.setItem(KEY, t); showChat(); }
});
$("chat-form").addEventListener("submit", (e) => {
  e.preventDefault(); const t = $("message").value.trim();
  if (t && !$("send").disabled) { $("message").value = ""; send(t); }
});
$("message").addEventListener("keydown", (e) => {
  if (e.key === "Enter" && !e.shiftKey && !e.isComposing) { e.preventDefault(); $("chat-form").requestSubmit(); }
});
$("change-token").addEventListener("click", () => showToken());
$("new-chat").addEventListener("click", () => { history = []; $("log").replaceChildren(); $("message").focus(); });
if (localStorage.getItem(KEY)) showChat(); else showToken();
`;

/** The page HTML; `nonce` allows exactly its own inline script and style. */
export function chatPageHtml(nonce: string): string {
  return `<!doctype html>
<html lang="ja"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>MCP chat</title><style nonce="${nonce}">${STYLE}</style></head>
<body>
<header><h1>MCP chat</h1><button id="new-chat" class="ghost" type="button">New chat</button>
<button id="change-token" class="ghost" type="button">Token</button></header>
<section id="token-view" hidden>
<p>Enter the server's bearer token (MCP_AUTH_TOKEN). It stays in this browser only.</p>
<p id="token-note"></p>
<form id="token-form"><input id="token-input" type="password" autocomplete="current-password" placeholder="token">
<button id="token-save" type="submit">Save</button></form></section>
<div id="chat-view" hidden>
<main id="log" aria-live="polite"></main>
<form id="chat-form"><textarea id="message" placeholder="例: ブルーアイズの対戦動画サムネイルを作って" aria-label="message"></textarea>
<button id="send" type="submit">Send</button></form></div>
<script nonce="${nonce}">${SCRIPT}</script>
</body></html>`;
}

/** Handler of GET /chat: the page with a strict Content-Security-Policy. */
export function chatPage(c: Context): Response {
  const nonce = crypto.randomUUID().replace(/-/g, "");
  return c.html(chatPageHtml(nonce), 200, {
    "Content-Security-Policy": `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
  });
}
