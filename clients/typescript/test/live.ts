// Uses the generated client against a live server, as an integrator would. Run by the e2e
// test `clients` with QUIRE_URL, QUIRE_CLIENT_ID and QUIRE_CLIENT_SECRET; prints what it
// saw as one JSON object, which the Rust side checks.
import { fetchToken, quireClient } from "../src/index.js";

declare const process: { env: Record<string, string | undefined> };

const base = process.env.QUIRE_URL!;
const token = await fetchToken(base, process.env.QUIRE_CLIENT_ID!, process.env.QUIRE_CLIENT_SECRET!);
const quire = quireClient(base, token);
const seen: Record<string, unknown> = {};

// Create from a file (multipart), then download it as PDF.
const upload = new FormData();
upload.append("file", new Blob(["# Minutes\n\nTyped from TypeScript."], { type: "text/markdown" }), "minutes.md");
const created = await quire.POST("/api/v1/pdfs", {
  body: upload as never,
  bodySerializer: (body) => body as unknown as FormData,
});
if (!created.data) throw new Error(`create: ${created.response.status} ${JSON.stringify(created.error)}`);
const doc = created.data.document;
seen.created = { status: created.response.status, title: doc.title, kind: doc.kind };
const pdf = await quire.GET("/api/v1/documents/{id}.{format}", {
  params: { path: { id: doc.id, format: "pdf" } },
  parseAs: "arrayBuffer",
});
seen.pdfHead = new TextDecoder().decode(new Uint8Array(pdf.data as ArrayBuffer).slice(0, 5));

// A form and its answers.
const form = await quire.POST("/api/v1/forms", {
  body: {
    markdown: "# Sign-up\n\nName: ____________\n",
    title: "Sign-up",
    fields: [{ key: "name", type: "text", label: "Name", required: true, page: 1, x: 72, y: 150, w: 220, h: 20 }],
  },
});
if (!form.data) throw new Error(`form: ${form.response.status} ${JSON.stringify(form.error)}`);
const formId = form.data.form.id;
const answered = await quire.POST("/api/v1/forms/{id}/responses", {
  params: { path: { id: formId } },
  body: { answers: { name: "Ada" }, as: "ada@example.org" },
});
seen.answered = answered.response.status;
const responses = await quire.GET("/api/v1/forms/{id}/responses", { params: { path: { id: formId } } });
seen.answers = responses.data?.responses.map((r) => r.values);

// An error comes back typed, with its status.
const missing = await quire.GET("/api/v1/documents/{id}", { params: { path: { id: "0".repeat(32) } } });
seen.missing = { status: missing.response.status, ok: missing.error?.ok, detail: missing.error?.detail };
const refused = await quire.POST("/api/v1/forms/{id}/responses", {
  params: { path: { id: formId } },
  body: { answers: {}, as: "bob@example.org" },
});
seen.refused = { status: refused.response.status, field: (refused.error as { field?: string } | undefined)?.field };

console.log(JSON.stringify(seen));
