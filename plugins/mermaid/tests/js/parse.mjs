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

let failed = false;
for (const file of process.argv.slice(2)) {
  const text = readFileSync(file, 'utf8');
  const line = { file };
  try {
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
        .map((v) => ({ id: v.id, text: v.text, type: v.type ?? null }));
      line.edges = db.getEdges().map((e) => ({
        start: e.start,
        end: e.end,
        type: e.type,
        stroke: e.stroke,
        length: e.length,
        text: e.text,
      }));
      line.subgraphs = subgraphs.map((s) => ({ id: s.id, title: s.title, nodes: s.nodes, dir: s.dir ?? null }));
    }
  } catch (e) {
    line.ok = false;
    line.error = String(e.message ?? e).split('\n').slice(0, 4).join(' | ');
    failed = true;
  }
  console.log(JSON.stringify(line));
}
process.exit(failed ? 1 : 0);
