import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { CSRF_HEADER, detailOf, sendJson } from "./request.js";

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** Replaces fetch with one that keeps its calls and answers `answer`. */
function recordFetch(answer = new Response("{}")) {
  const calls = [];
  globalThis.fetch = async (url, init) => {
    calls.push({ url, init });
    return answer;
  };
  return calls;
}

test("sendJson posts JSON with the session's token and cookie", async () => {
  const calls = recordFetch();
  await sendJson("/d/x/source/preview?page=2", { csrf: "t0k", body: '{"markdown":"# Hi"}' });
  assert.deepEqual(calls, [
    {
      url: "/d/x/source/preview?page=2",
      init: {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": "t0k" },
        body: '{"markdown":"# Hi"}',
      },
    },
  ]);
});

test("sendJson takes the method, the answer wanted and more headers, never another token", async () => {
  const calls = recordFetch();
  await sendJson("/d/x/model", {
    method: "PUT",
    csrf: "t0k",
    body: "{}",
    accept: "image/svg+xml",
    headers: { "If-Match": '"3"', [CSRF_HEADER]: "forged" },
  });
  const { init } = calls[0];
  assert.equal(init.method, "PUT");
  assert.deepEqual(init.headers, {
    "Content-Type": "application/json",
    Accept: "image/svg+xml",
    "If-Match": '"3"',
    "X-CSRF-Token": "t0k",
  });
});

test("detailOf reads a JSON detail, else the text, else the status", async () => {
  assert.equal(await detailOf(new Response('{"detail":"no such page"}', { status: 404 })), "no such page");
  assert.equal(await detailOf(new Response("  plain words \n", { status: 500 })), "plain words");
  assert.equal(await detailOf(new Response("x".repeat(400), { status: 500 })), "x".repeat(300));
  assert.equal(await detailOf(new Response("", { status: 502, statusText: "Bad Gateway" })), "502 Bad Gateway");
});
