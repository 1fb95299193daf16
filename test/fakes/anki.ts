/**
 * @module Fake AnkiConnect (2025 add-on by default), faithful to ../shared/protocols/ankiconnect.md:
 * path and method ignored, body read only by Content-Length, HTTP 200 for every API outcome with
 * the exact error strings, version/key rules, multi with per-action version and key, the 2025
 * addNotes rollback, canAddNotesWithErrorDetail, notesInfo {} for missing ids, storeMediaFile.
 *
 * Knobs (POST /__control): apiKey (string: key checking on), legacy (2023 behaviour),
 * slowActions ({action: ms}: answer late, after the work is done), noCollection, dropBody
 * (a proxy that loses the body), fault "garbage" (HTML) or "bare" (JSON without an envelope).
 * GET /__control includes `state` (notes, decks, media names, received envelopes).
 */
import { createHash } from "node:crypto";
import { AnkiFail, Collection } from "./anki-collection";
import type { FakeDefinition, FakeRequest, FakeResponse, Knobs } from "./harness";

type Params = Record<string, unknown>;
interface ActionDef {
  params: string[];
  required?: string[];
  run(p: Params, knobs: Knobs, col: Collection): unknown;
}

/** Python's repr of a str, as AnkiConnect's `str(list_of_errors)` writes it. */
function pyStr(s: string): string {
  if (s.includes("'") && !s.includes('"')) return `"${s}"`;
  return `'${s.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}

function decodeB64(data: string): Buffer {
  const clean = data.replace(/[^A-Za-z0-9+/=]/g, "");
  if (clean.length % 4 !== 0) throw new AnkiFail("Incorrect padding");
  return Buffer.from(clean, "base64");
}

function noteInfo(col: Collection, id: unknown, knobs: Knobs): Record<string, unknown> {
  const n = col.notes.get(Number(id));
  if (!n) return {};
  const model = col.model(n.model);
  const fields = Object.fromEntries(model.fields.map((f, order) => [f, { value: n.fields[f] ?? "", order }]));
  if (knobs.legacy) return { noteId: n.id, tags: n.tags, fields, modelName: n.model, cards: n.cards };
  return { noteId: n.id, profile: "User 1", tags: n.tags, fields, modelName: n.model, mod: n.mod, cards: n.cards };
}

function canAdd(col: Collection, notes: unknown): { canAdd: boolean; error?: string }[] {
  return (Array.isArray(notes) ? notes : []).map((spec) => {
    try {
      col.check(spec);
      return { canAdd: true };
    } catch (err) {
      return { canAdd: false, error: err instanceof Error ? err.message : String(err) };
    }
  });
}

const ACTIONS: Record<string, ActionDef> = {
  version: { params: [], run: () => 6 },
  requestPermission: {
    params: ["origin", "allowed"],
    run: (_p, k) => ({ permission: "granted", requireApikey: typeof k.apiKey === "string", version: 6 }),
  },
  deckNames: { params: [], run: (_p, _k, col) => [...col.decks.keys()] },
  deckNamesAndIds: { params: [], run: (_p, _k, col) => Object.fromEntries(col.decks) },
  createDeck: { params: ["deck"], required: ["deck"], run: (p, _k, col) => col.createDeck(String(p.deck)) },
  modelNames: { params: [], run: (_p, _k, col) => [...col.models.keys()] },
  modelFieldNames: {
    params: ["modelName"],
    required: ["modelName"],
    run: (p, _k, col) => col.model(p.modelName).fields,
  },
  modelTemplates: {
    params: ["modelName"],
    required: ["modelName"],
    run: (p, _k, col) => col.model(p.modelName).templates,
  },
  modelStyling: {
    params: ["modelName"],
    required: ["modelName"],
    run: (p, _k, col) => ({ css: col.model(p.modelName).css }),
  },
  addNote: { params: ["note"], required: ["note"], run: (p, _k, col) => col.insert(col.check(p.note)) },
  addNotes: {
    params: ["notes"],
    required: ["notes"],
    run: (p, k, col) => {
      const ids: (number | null)[] = [];
      const errors: string[] = [];
      for (const spec of Array.isArray(p.notes) ? p.notes : []) {
        try {
          ids.push(col.insert(col.check(spec)));
        } catch (err) {
          ids.push(null);
          errors.push(err instanceof Error ? err.message : String(err));
        }
      }
      if (k.legacy || errors.length === 0) return ids;
      col.delete(ids.filter((x): x is number => x !== null)); // 2025: the batch is rolled back
      throw new AnkiFail(`[${errors.map(pyStr).join(", ")}]`);
    },
  },
  canAddNotes: {
    params: ["notes"],
    required: ["notes"],
    run: (p, _k, col) => canAdd(col, p.notes).map((r) => r.canAdd),
  },
  canAddNotesWithErrorDetail: { params: ["notes"], required: ["notes"], run: (p, _k, col) => canAdd(col, p.notes) },
  canAddNoteWithErrorDetail: { params: ["note"], required: ["note"], run: (p, _k, col) => canAdd(col, [p.note])[0] },
  notesInfo: {
    params: ["notes", "query"],
    run: (p, k, col) => {
      if (Array.isArray(p.notes)) return p.notes.map((id) => noteInfo(col, id, k));
      if (typeof p.query === "string") return col.find(p.query).map((id) => noteInfo(col, id, k));
      throw new AnkiFail('Must provide either "notes" or a "query"');
    },
  },
  cardsInfo: {
    params: ["cards"],
    required: ["cards"],
    run: (p, _k, col) =>
      (Array.isArray(p.cards) ? p.cards : []).map((id) => {
        const c = col.cards.get(Number(id));
        const n = c ? col.notes.get(c.note) : undefined;
        if (!c || !n) return {};
        return {
          cardId: c.id,
          note: n.id,
          deckName: c.deck,
          modelName: n.model,
          ord: c.ord,
          interval: 0,
          type: 0,
          queue: 0,
          due: 1,
          reps: 0,
          lapses: 0,
          left: 0,
          mod: n.mod,
        };
      }),
  },
  findNotes: { params: ["query"], run: (p, _k, col) => (typeof p.query === "string" ? col.find(p.query) : []) },
  deleteNotes: {
    params: ["notes"],
    required: ["notes"],
    run: (p, _k, col) => col.delete((p.notes as unknown[]).map(Number)),
  },
  storeMediaFile: {
    params: ["filename", "data", "path", "url", "skipHash", "deleteExisting"],
    required: ["filename"],
    run: (p, _k, col) => {
      let data: Buffer;
      if (typeof p.data === "string") data = decodeB64(p.data);
      else if (typeof p.path === "string") throw new AnkiFail(`[Errno 2] No such file or directory: ${pyStr(p.path)}`);
      else if (typeof p.url === "string") throw new AnkiFail(`${p.url} download failed with return code 404`);
      else throw new AnkiFail('You must provide a "data", "path", or "url" field.');
      if (typeof p.skipHash === "string" && createHash("md5").update(data).digest("hex") === p.skipHash) return null;
      return col.store(String(p.filename), data, p.deleteExisting !== false);
    },
  },
  retrieveMediaFile: {
    params: ["filename"],
    required: ["filename"],
    run: (p, _k, col) => col.media.get(String(p.filename))?.toString("base64") ?? false,
  },
  getMediaFilesNames: { params: ["pattern"], run: (_p, _k, col) => [...col.media.keys()] },
};

const reply = (result: unknown, error: unknown) => ({ result, error });

/** Python's `json.dumps`: ", " and ": " separators, non-ASCII escaped as \\uXXXX (ensure_ascii). */
export function pyDumps(v: unknown): string {
  if (v === null || v === undefined) return "null";
  if (Array.isArray(v)) return `[${v.map(pyDumps).join(", ")}]`;
  if (typeof v === "object") {
    return `{${Object.entries(v)
      .map(([k, x]) => `${pyDumps(k)}: ${pyDumps(x)}`)
      .join(", ")}}`;
  }
  if (typeof v === "string") {
    return JSON.stringify(v).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  }
  return JSON.stringify(v);
}

/**
 * Python's json.loads message for the two common mistakes: an object whose first key is not in
 * double quotes (e.g. a Python dict repr), and text that is not JSON at all.
 */
function jsonError(raw: string): string {
  const at = (i: number) => {
    const before = raw.slice(0, i);
    const line = before.split("\n").length;
    return `line ${line} column ${i - before.lastIndexOf("\n")} (char ${i})`;
  };
  const start = raw.search(/\S/);
  if (raw[start] === "{") {
    const key = start + 1 + raw.slice(start + 1).search(/\S|$/);
    if (raw[key] !== '"' && raw[key] !== "}") return `Expecting property name enclosed in double quotes: ${at(key)}`;
  }
  return `Expecting value: ${at(start === -1 ? raw.length : start)}`;
}

/** Python's type name of a JSON value. */
function pyType(v: unknown): string {
  if (v === null || v === undefined) return "NoneType";
  if (Array.isArray(v)) return "list";
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "float";
  return typeof v === "string" ? "str" : typeof v === "boolean" ? "bool" : "dict";
}

/** web.py's jsonschema check of a request body (top level only: `multi` calls handler() directly). */
function schemaError(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return `${JSON.stringify(body)} is not of type 'object'\n\nFailed validating 'type' in schema:\n    {'type': 'object'}`;
  }
  const env = body as Record<string, unknown>;
  if (!("action" in env)) return "'action' is a required property";
  if (typeof env.action !== "string") return `${JSON.stringify(env.action)} is not of type 'string'`;
  return undefined;
}

/** AnkiConnect's `handler()`: defaults, key check, dispatch; replies by version. */
function handle(col: Collection, received: unknown[], body: unknown, knobs: Knobs): unknown {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    // handler() calls request.get(...): inside multi a non-object fails the whole call.
    throw new AnkiFail(`'${pyType(body)}' object has no attribute 'get'`);
  }
  const env = body as Record<string, unknown>;
  const action = typeof env.action === "string" ? env.action : ""; // request.get('action', '')
  received.push(env);
  const version = typeof env.version === "number" ? env.version : 4;
  const params = (env.params ?? {}) as Params;
  const key = env.key ?? null;
  if (action !== "requestPermission" && key !== (typeof knobs.apiKey === "string" ? knobs.apiKey : null)) {
    return reply(null, "valid api key must be provided");
  }
  try {
    if (knobs.noCollection && action !== "version" && action !== "requestPermission") {
      throw new AnkiFail("collection is not available");
    }
    let result: unknown;
    if (action === "multi") {
      const extra = Object.keys(params).find((k) => k !== "actions");
      if (extra) throw new AnkiFail(`AnkiConnect.multi() got an unexpected keyword argument '${extra}'`);
      result = (Array.isArray(params.actions) ? params.actions : []).map((a) => handle(col, received, a, knobs));
    } else {
      const def =
        knobs.legacy && action === "canAddNotesWithErrorDetail"
          ? undefined
          : Object.hasOwn(ACTIONS, action)
            ? ACTIONS[action]
            : undefined;
      if (!def) throw new AnkiFail("unsupported action");
      const extra = Object.keys(params).find((k) => !def.params.includes(k));
      if (extra) throw new AnkiFail(`AnkiConnect.${action}() got an unexpected keyword argument '${extra}'`);
      const missing = def.required?.find((k) => !(k in params));
      if (missing) throw new AnkiFail(`AnkiConnect.${action}() missing 1 required positional argument: '${missing}'`);
      result = def.run(params, knobs, col);
    }
    return version <= 4 ? result : reply(result, null);
  } catch (err) {
    return reply(null, err instanceof Error ? err.message : String(err));
  }
}

function allowOrigin(origin: string): boolean {
  return (
    origin === "http://localhost" ||
    origin === "http://127.0.0.1" ||
    origin === "https://127.0.0.1" ||
    origin.startsWith("http://127.0.0.1:") ||
    /^(chrome|moz|safari-web)-extension:\/\//.test(origin)
  );
}

/** A fake AnkiConnect with its own collection (one per test file that turns knobs, so files can run in parallel). */
export function makeAnkiFake(name: string): FakeDefinition {
  let col = new Collection();
  let received: unknown[] = [];
  return {
    name,
    reset() {
      col = new Collection();
      received = [];
    },
    state: () => ({
      notes: [...col.notes.values()],
      decks: [...col.decks.keys()],
      media: Object.fromEntries([...col.media].map(([k, v]) => [k, v.length])),
      received: received.slice(-200),
    }),
    async handle(req): Promise<FakeResponse> {
      // AnkiConnect closes the connection after every response (no keep-alive).
      const out = await answer(req);
      return { ...out, headers: { ...out.headers, Connection: "close" } };
    },
  };

  async function answer(req: FakeRequest): Promise<FakeResponse> {
    const origin = typeof req.headers.origin === "string" ? req.headers.origin : undefined;
    const cors = { "Access-Control-Allow-Origin": origin ?? "http://localhost", "Access-Control-Allow-Headers": "*" };
    if (req.method === "OPTIONS") return { headers: cors, body: "" };
    if (req.knobs.fault === "garbage")
      return { headers: { "Content-Type": "text/html" }, body: "<html><body>It works!</body></html>" };
    // Only Content-Length counts: a chunked body (no Content-Length) reads as empty.
    const len = Number(req.headers["content-length"] ?? "0") || 0;
    const raw = req.knobs.dropBody ? "" : req.body.subarray(0, len).toString("utf8");
    let parsed: unknown;
    let out: unknown;
    if (raw === "") out = req.knobs.legacy ? "AnkiConnect v.6" : { apiVersion: "AnkiConnect v.6" };
    else {
      try {
        parsed = JSON.parse(raw);
      } catch {
        out = reply(null, jsonError(raw));
      }
      const action = (parsed as { action?: unknown } | undefined)?.action;
      if (origin && !allowOrigin(origin) && action !== "requestPermission") {
        return {
          status: 403,
          headers: { "Access-Control-Allow-Origin": "http://localhost", "Access-Control-Allow-Headers": "*" },
        };
      }
      const invalid = out ? undefined : schemaError(parsed);
      if (invalid) out = reply(null, invalid);
      out ??= handle(col, received, parsed, req.knobs);
      if (req.knobs.fault === "bare") out = (out as { result?: unknown }).result ?? out;
      const slow = (req.knobs.slowActions as Record<string, number> | undefined)?.[String(action)];
      if (slow) await new Promise((r) => setTimeout(r, slow));
    }
    const body = typeof out === "string" ? out : pyDumps(out);
    return {
      headers: { "Content-Type": typeof out === "string" ? "text/plain" : "application/json", ...cors },
      body,
    };
  }
}
