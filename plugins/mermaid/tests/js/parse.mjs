// Parses mermaid files with the real mermaid library (headless: jsdom stands in for the
// browser) and prints one JSON line per file: the diagram type and, for flowcharts, what
// mermaid's own database holds (nodes, edges with their ends, subgraphs with their members).
// Usage: node parse.mjs FILE...   Exit status 1 if any file fails to parse.
import { readFileSync } from 'node:fs';
import { JSDOM } from 'jsdom';

const dom = new JSDOM('<!doctype html><html><body></body></html>');
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const { default: mermaid } = await import('mermaid');
mermaid.initialize({ startOnLoad: false });

// The text a label shows, read independently of the Rust importer: mermaid's entity
// placeholders back to HTML entities, <br> to line breaks, markdown emphasis and simple tags
// removed, entities decoded by the DOM, lines trimmed.
const area = dom.window.document.createElement('textarea');
function shown(text, markdown) {
  let s = String(text ?? '');
  s = s.replace(/\uFB02\u00B0\u00B0(\d+)\u00B6\u00DF/g, '&#$1;');
  s = s.replace(/\uFB02\u00B0(\w+)\u00B6\u00DF/g, '&$1;');
  s = s.replace(/<br\s*\/?>/gi, '\n');
  s = s.replace(/<\/?(b|strong|i|em|u|s|del|span|small|big|code|sub|sup|img)\b[^<>]*>/gi, '');
  // Font Awesome icons (mermaid draws them from the icon font, no text): gone, with one of
  // the two spaces around them, as the page shows it.
  s = s.replace(/(fa[bklrs]?):fa-([\w-]+)( ?)/g, (m, style, name, space, at, all) =>
    space && (at === 0 || all[at - 1] === ' ') ? '' : space);
  if (markdown) {
    s = s.replace(/(\*\*|__)(.+?)\1/g, '$2').replace(/(\*|\b_)(.+?)(\*|_\b)/g, '$2');
  }
  area.innerHTML = s;
  s = area.value;
  const lines = s.split('\n').map((l) => l.trim());
  while (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  while (lines.length > 1 && lines[0] === '') lines.shift();
  return lines.join('\n');
}

let failed = false;
for (const file of process.argv.slice(2)) {
  const text = readFileSync(file, 'utf8');
  const line = { file };
  try {
    // What the front matter and `%%{init}%%` configure (mermaid's render reads them first).
    const { config } = await mermaid.parse(text);
    const diagram = await mermaid.mermaidAPI.getDiagramFromText(text);
    line.ok = true;
    line.type = diagram.type;
    const db = diagram.db;
    if (typeof db.getVertices === 'function') {
      const vertices = db.getVertices();
      const subgraphs = db.getSubGraphs();
      const groupIds = new Set(subgraphs.map((s) => s.id));
      line.nodes = [...vertices.values()]
        .filter((v) => !groupIds.has(v.id))
        .map((v) => ({
          id: v.id,
          text: v.text,
          shown: shown(v.text, v.labelType === 'markdown'),
          type: v.type ?? null,
        }));
      const edges = db.getEdges();
      line.edges = edges.map((e) => ({
        start: e.start,
        end: e.end,
        type: e.type,
        stroke: e.stroke,
        length: e.length,
        text: e.text,
        shown: shown(e.text, e.labelType === 'markdown'),
        // The curve mermaid draws the link with, as its renderer picks it (flowDb's getData).
        curve: e.interpolate || edges.defaultInterpolate || config?.flowchart?.curve || null,
      }));
      line.subgraphs = subgraphs.map((s) => ({
        id: s.id,
        title: s.title,
        shown: shown(s.title, s.labelType === 'markdown'),
        nodes: s.nodes,
        dir: s.dir ?? null,
      }));
    }
  } catch (e) {
    line.ok = false;
    line.error = String(e.message ?? e).split('\n').slice(0, 4).join(' | ');
    failed = true;
  }
  console.log(JSON.stringify(line));
}
process.exit(failed ? 1 : 0);
