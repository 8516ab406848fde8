// Quire's API client: `paths` and `components` are generated from the OpenAPI document
// (src/schema.d.ts, by openapi-typescript; `make clients` regenerates it), and requests go
// through openapi-fetch, so every path, parameter, body and answer is type-checked.
import createClient from "openapi-fetch";
import type { paths } from "./schema.js";

export type { components, paths } from "./schema.js";

/** A client that sends `token` with every request. */
export function quireClient(baseUrl: string, token: string) {
  return createClient<paths>({
    baseUrl,
    headers: { Authorization: `Bearer ${token}` },
  });
}

/** A token for an API credential (OAuth 2.0 client credentials). */
export async function fetchToken(
  baseUrl: string,
  clientId: string,
  clientSecret: string,
  scope?: string,
): Promise<string> {
  const form = new URLSearchParams({ grant_type: "client_credentials" });
  if (scope) form.set("scope", scope);
  const reply = await fetch(`${baseUrl}/auth/oauth/token`, {
    method: "POST",
    headers: {
      Authorization: `Basic ${btoa(`${clientId}:${clientSecret}`)}`,
      "Content-Type": "application/x-www-form-urlencoded",
    },
    body: form,
  });
  const answer = (await reply.json()) as { access_token?: string; error?: string };
  if (!reply.ok || !answer.access_token) {
    throw new Error(`token refused (${reply.status}): ${answer.error ?? "no token"}`);
  }
  return answer.access_token;
}
