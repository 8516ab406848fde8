import assert from "node:assert/strict";
import { test } from "node:test";

import { size } from "./upload.js";

test("sizes are written as the pages write them", () => {
  assert.equal(size(512), "512 bytes");
  assert.equal(size(1536), "1.5 KiB");
  assert.equal(size(25 * 1024 * 1024), "25.0 MiB");
  assert.equal(size(3 * 1024 ** 3), "3.0 GiB");
});
