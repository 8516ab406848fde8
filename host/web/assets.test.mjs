// Every script here is served: the pages load modules from /assets/, and a module missing
// from the one list of served files (host/src/web/pages/assets.rs) breaks the page that
// imports it only in a browser.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";

const here = new URL(".", import.meta.url);
const served = readFileSync(new URL("../src/web/pages/assets.rs", here), "utf8");
const scripts = readdirSync(here).filter((name) => name.endsWith(".js"));

test("every script is served as JavaScript, from its own file", () => {
  for (const name of scripts) {
    const entry = `"${name}",\n        "text/javascript; charset=utf-8",\n        include_str!("../../../web/${name}"),`;
    assert.ok(served.includes(entry), `${name} is not in assets.rs's FILES as a script`);
  }
});

test("every module a script imports is one of the scripts here", () => {
  for (const name of scripts) {
    const source = readFileSync(new URL(name, here), "utf8");
    for (const [, target] of source.matchAll(/^import [^;]*? from "([^"]+)";/gms)) {
      assert.match(target, /^\.\/[a-z-]+\.js$/, `${name} imports ${target}, which /assets/ cannot serve`);
      assert.ok(scripts.includes(target.slice(2)), `${name} imports ${target}, which is not here`);
    }
  }
});
