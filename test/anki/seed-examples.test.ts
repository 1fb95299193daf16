/** Spec 000's request examples through the MCP SDK Client over both transports (verbatim at the end). */
import { describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connect } from "../helpers/mcp";
import { ankiState, callAnki, dataOf, resetFake } from "../helpers/anki";

type Detail = { index: number; status: string; noteId?: number; dedup_key?: string };
type AddResult = { added: number; skipped: number; details: Detail[] };

const MODEL_INFO_REQUEST = {
  name: "anki.model_info",
  arguments: {
    model: "Поля для ChatGPT",
  },
};

const MODEL_INFO_RESPONSE = {
  model: "Поля для ChatGPT",
  fields: ["Prompt", "Response", "Context", "Sources"],
  templates: {
    "Card 1": {
      Front:
        '<div class="prompt">{{Prompt}}</div>\n{{#Context}}<div class="context">{{Context}}</div>{{/Context}}\n{{tts de_DE voices=AwesomeTTS:Prompt}}',
      Back: '{{FrontSide}}\n<hr id="answer">\n<div class="response">{{Response}}</div>\n{{#Sources}}<div class="sources">{{Sources}}</div>{{/Sources}}',
    },
  },
  styling:
    '.card {\n  font-family: "Inter", "Segoe UI", sans-serif;\n  font-size: 22px;\n  text-align: left;\n  line-height: 1.5;\n}\n.prompt {\n  font-weight: 600;\n  font-size: 24px;\n  margin-bottom: 12px;\n}\n.context {\n  color: #4a5568;\n  font-style: italic;\n  margin-bottom: 16px;\n}\n.response {\n  color: #1a202c;\n  font-size: 22px;\n  margin-bottom: 12px;\n}\n.sources {\n  color: #2d3748;\n  font-size: 18px;\n  white-space: pre-wrap;\n}',
};

/** The add_from_model example of spec 000 with unique text, so it can run once per transport (verbatim below). */
function addFromModelRequest(suffix: string) {
  return {
    name: "anki.add_from_model",
    arguments: {
      deck: "Default",
      model: "Поля для ChatGPT",
      items: [
        {
          Prompt: `Расскажи коротко про столицу Франции${suffix}`,
          Response: "Столица Франции — Париж.",
          Context: "Основные факты",
          Sources: "https://ru.wikipedia.org/wiki/Париж",
          tags: ["geo", "de"],
          dedup_key: `geo-paris${suffix}`,
        },
        {
          fields: {
            Prompt: `Что нужно знать о столице Германии?${suffix}`,
            Response: "Столица Германии — Берлин.",
            Context: "Краткая справка",
            Sources: "https://ru.wikipedia.org/wiki/Берлин",
          },
          tags: ["geo", "de"],
        },
      ],
    },
  };
}

const ROUTES = [
  ["/anki/mcp", "streamable-http"],
  ["/anki/sse", "sse"],
  ["/mcp", "streamable-http"],
] as const;

describe.each(ROUTES)("spec 000 examples over %s (%s)", (path, transport) => {
  const withClient = async (fn: (c: Client) => Promise<void>) => {
    const client = await connect(path, transport);
    try {
      await fn(client);
    } finally {
      await client.close();
    }
  };

  it("lists the four Anki tools", () =>
    withClient(async (c) => {
      const names = (await c.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(
        expect.arrayContaining(["anki.model_info", "anki.add_from_model", "anki.note_info", "anki.add_notes"]),
      );
      if (path.startsWith("/anki")) expect(names).not.toContain("greet");
    }));

  it("anki.model_info answers the seed's example response exactly", () =>
    withClient(async (c) => {
      const res = await c.callTool(MODEL_INFO_REQUEST);
      expect(res.isError).toBeFalsy();
      expect(res.structuredContent).toEqual(MODEL_INFO_RESPONSE);
    }));

  it("anki.add_from_model adds both seed items, flat and NoteInput, with dedup_key in details", () =>
    withClient(async (c) => {
      const suffix = ` [${transport} ${path} ${crypto.randomUUID().slice(0, 8)}]`;
      const res = await c.callTool(addFromModelRequest(suffix));
      expect(res.isError).toBeFalsy();
      const out = dataOf<AddResult>(res);
      expect(out).toMatchObject({ added: 2, skipped: 0 });
      expect(out.details).toEqual([
        { index: 0, status: "ok", noteId: expect.any(Number), dedup_key: `geo-paris${suffix}` },
        { index: 1, status: "ok", noteId: expect.any(Number) },
      ]);
      const notes = (await ankiState()).notes.filter((n) => out.details.some((d) => d.noteId === n.id));
      expect(notes.map((n) => Object.keys(n.fields))).toEqual([
        ["Prompt", "Response", "Context", "Sources"],
        ["Prompt", "Response", "Context", "Sources"],
      ]);
      expect(notes[0]?.fields).toMatchObject({
        Response: "Столица Франции — Париж.",
        Sources: "https://ru.wikipedia.org/wiki/Париж",
      });
      expect(notes[1]?.tags).toEqual(["geo", "de"]);

      // The seed's note_info example shape, for the notes just added plus a missing id.
      const ids = out.details.map((d) => d.noteId);
      const info = await c.callTool({ name: "anki.note_info", arguments: { noteIds: [ids[0], 1] } });
      expect(info.structuredContent).toEqual({
        notes: [
          {
            noteId: ids[0],
            modelName: "Поля для ChatGPT",
            deckName: "Default",
            tags: expect.arrayContaining(["geo", "de"]),
            fields: {
              Prompt: `Расскажи коротко про столицу Франции${suffix}`,
              Response: "Столица Франции — Париж.",
              Context: "Основные факты",
              Sources: "https://ru.wikipedia.org/wiki/Париж",
            },
            cards: [expect.any(Number)],
          },
          null,
        ],
      });
    }));

  it("returns an Anki refusal as an isError result the model can read, not a protocol error", () =>
    withClient(async (c) => {
      const res = await c.callTool({ name: "anki.model_info", arguments: { model: "Нет такой модели" } });
      expect(res.isError).toBe(true);
      expect(res.content).toEqual([
        {
          type: "text",
          text: 'Anki has no note type "Нет такой модели" (model was not found: Нет такой модели). Note types: Basic, Basic (and reversed card), Поля для ChatGPT.',
        },
      ]);
    }));

  it("returns invalid arguments as an isError result naming the field", () =>
    withClient(async (c) => {
      await c.listTools(); // the client now validates structured results against output schemas
      const res = await c.callTool({ name: "anki.add_from_model", arguments: { items: [] } });
      expect(res.isError).toBe(true);
      expect((res.content as { text: string }[])[0]?.text).toMatch(/^Invalid arguments: items: /);
    }));

  it("anki.add_notes adds the seed's low-level example", () =>
    withClient(async (c) => {
      const prompt = `Это тестовая карточка ${crypto.randomUUID()}`;
      const res = await c.callTool({
        name: "anki.add_notes",
        arguments: {
          deck: "Default",
          model: "Поля для ChatGPT",
          notes: [
            {
              fields: {
                Prompt: prompt,
                Response: "Ответ добавлен через add_notes.",
                Context: "Проверка низкоуровневого метода",
                Sources: "",
              },
              tags: [],
              images: [],
            },
          ],
        },
      });
      expect(res.isError).toBeFalsy();
      expect(res.structuredContent).toEqual({
        added: 1,
        skipped: 0,
        details: [{ index: 0, status: "ok", noteId: expect.any(Number) }],
      });
    }));
});

describe("spec 000 request examples, verbatim", () => {
  const ADD_FROM_MODEL = {
    name: "anki.add_from_model",
    arguments: {
      deck: "Default",
      model: "Поля для ChatGPT",
      items: [
        {
          Prompt: "Расскажи коротко про столицу Франции",
          Response: "Столица Франции — Париж.",
          Context: "Основные факты",
          Sources: "https://ru.wikipedia.org/wiki/Париж",
          tags: ["geo", "de"],
          dedup_key: "geo-paris",
        },
        {
          fields: {
            Prompt: "Что нужно знать о столице Германии?",
            Response: "Столица Германии — Берлин.",
            Context: "Краткая справка",
            Sources: "https://ru.wikipedia.org/wiki/Берлин",
          },
          tags: ["geo", "de"],
        },
      ],
    },
  };
  const ADD_NOTES = {
    name: "anki.add_notes",
    arguments: {
      deck: "Default",
      model: "Поля для ChatGPT",
      notes: [
        {
          fields: {
            Prompt: "Это тестовая карточка",
            Response: "Ответ добавлен через add_notes.",
            Context: "Проверка низкоуровневого метода",
            Sources: "",
          },
          tags: [],
          images: [],
        },
      ],
    },
  };

  it("anki.add_from_model: adds both notes, and sent again over SSE adds nothing (dedup_key, then Anki's duplicate rule)", async () => {
    const http = await connect("/anki/mcp");
    const first = dataOf<AddResult>(await http.callTool(ADD_FROM_MODEL));
    await http.close();
    expect(first).toEqual({
      added: 2,
      skipped: 0,
      details: [
        { index: 0, status: "ok", noteId: expect.any(Number), dedup_key: "geo-paris" },
        { index: 1, status: "ok", noteId: expect.any(Number) },
      ],
    });
    const sse = await connect("/anki/sse", "sse");
    const again = dataOf<AddResult>(await sse.callTool(ADD_FROM_MODEL));
    await sse.close();
    expect(again).toEqual({
      added: 0,
      skipped: 2,
      details: [
        { index: 0, status: "already_added", noteId: first.details[0]?.noteId, dedup_key: "geo-paris" },
        { index: 1, status: "duplicate", error: "cannot create note because it is a duplicate" },
      ],
    });
  });

  it("anki.add_notes: the seed's answer, then Anki's duplicate rule on the second call", async () => {
    const client = await connect("/mcp");
    const first = await client.callTool(ADD_NOTES);
    const second = await client.callTool(ADD_NOTES);
    await client.close();
    expect(first.structuredContent).toEqual({
      added: 1,
      skipped: 0,
      details: [{ index: 0, status: "ok", noteId: expect.any(Number) }],
    });
    expect(second.structuredContent).toEqual({
      added: 0,
      skipped: 1,
      details: [{ index: 0, status: "duplicate", error: "cannot create note because it is a duplicate" }],
    });
  });

  it("anki.note_info: the seed's example answer, a note then null (AnkiConnect's {} for a missing id)", async () => {
    await resetFake("anki_seed");
    await callAnki("anki_seed", ADD_FROM_MODEL.name, ADD_FROM_MODEL.arguments);
    const res = await callAnki("anki_seed", "anki.note_info", {
      noteIds: [1700000000000, 1700000000005],
    });
    expect(res.structuredContent).toEqual({
      notes: [
        {
          noteId: 1700000000000,
          modelName: "Поля для ChatGPT",
          deckName: "Default",
          tags: ["geo", "de", expect.stringMatching(/^mcp-dedup::[0-9a-f]{20}$/)],
          fields: {
            Prompt: "Расскажи коротко про столицу Франции",
            Response: "Столица Франции — Париж.",
            Context: "Основные факты",
            Sources: "https://ru.wikipedia.org/wiki/Париж",
          },
          cards: [expect.any(Number)],
        },
        null,
      ],
    });
  });
});
