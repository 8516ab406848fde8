// Requests the pages' scripts make to our own routes. The gate (pages/mod.rs) refuses any
// change (a method other than GET and HEAD) that does not carry the session's synchronizer
// token, in the X-CSRF-Token header or (a form posted without scripts) the `_csrf` field.
// Every script sends its changes through `sendJson`, or, where it needs XHR's upload
// progress (upload.js), takes the names from here.

export const CSRF_HEADER = "X-CSRF-Token";
export const CSRF_FIELD = "_csrf";

/**
 * Sends `body` (JSON text) to `url` with the session's token `csrf`; `accept` is the answer
 * wanted, `headers` any others (If-Match). Resolves to the fetch Response.
 */
export function sendJson(url, { csrf, body, method = "POST", accept = "application/json", headers = {} }) {
  return fetch(url, {
    method,
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", Accept: accept, ...headers, [CSRF_HEADER]: csrf ?? "" },
    body,
  });
}

/** The `detail` of an error answer, whatever shape it came in. */
export async function detailOf(res) {
  try {
    const text = await res.text();
    try {
      const data = JSON.parse(text);
      if (data && typeof data.detail === "string") return data.detail;
    } catch {
      /* not JSON */
    }
    return text.trim().slice(0, 300) || `${res.status} ${res.statusText}`;
  } catch {
    return `${res.status} ${res.statusText}`;
  }
}
