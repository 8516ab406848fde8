// `plain-text`: a Quire importer written in JavaScript, built with ComponentizeJS (jco).
//
// It reads `text/plain` (UTF-8) into pages of the document model. The layout lives in
// layout.js; this module only binds it to the WIT world `converter` (wit/converter.wit,
// package quire:converter@1.2.0).
//
// ComponentizeJS maps each exported WIT interface to an exported object of this module,
// named in lowerCamelCase (`meta`, `importer`, `exporter`), with one method per function,
// also lowerCamelCase. `%import` and `%export` are WIT escapes for the reserved words: the
// methods are plainly `import` and `export` (legal property names in JavaScript).
// Records are plain objects with camelCase keys (`mediaType`), `list<u8>` is a Uint8Array,
// `option<T>` is the value or undefined, a tuple is an array. A function returning
// `result<T, convert-error>` returns T, or throws the error variant, `{ tag, val }`.

import { ConvertProblem, importText } from "./layout.js";

const TEXT = { mediaType: "text/plain", extension: "txt" };

function fail(tag, val) {
  // The thrown value is the `err` payload of the WIT result: a convert-error variant.
  throw { tag, val };
}

export const meta = {
  describe() {
    return {
      name: "plain-text",
      version: "1.0.0",
      imports: [TEXT],
      exports: [],
      options: [
        {
          name: "title",
          description: "Title of the document (none by default)",
        },
      ],
    };
  },
};

export const importer = {
  import(request) {
    const media = request.mediaType.split(";")[0].trim().toLowerCase();
    if (media !== TEXT.mediaType) {
      fail("unsupported", `this importer reads text/plain, not ${request.mediaType}`);
    }
    try {
      const { json, warnings } = importText(request.bytes, request.options);
      return { document: { model: json, assets: [] }, warnings };
    } catch (e) {
      if (e instanceof ConvertProblem) fail(e.tag, e.val);
      throw e; // a bug: the component traps and the host reports a crash
    }
  },
};

export const exporter = {
  export(_request) {
    fail("unsupported", "the plain-text importer does not write files; the text exporter does");
  },
};
