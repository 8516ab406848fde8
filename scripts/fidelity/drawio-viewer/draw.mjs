// The draw.io reference: every page of a diagram drawn by draw.io's own viewer
// (viewer-static.min.js, the script diagrams.net embeds in web pages) in Debian's
// Chromium, one PDF per page, each as large as what the page draws.
//
//   node draw.mjs VIEWER_JS STENCILS_DIR DIAGRAM OUT_PREFIX
//
// Offline: the viewer asks for stencil libraries by URL (`stencils/cisco/routers.xml`),
// which are answered from STENCILS_DIR; every other request is refused. Prints the number
// of pages written (OUT_PREFIX-1.pdf, ...).
import { readFileSync, existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(path.join(process.cwd(), "scripts/fidelity/node/package.json"));
const puppeteer = require("puppeteer-core");

const [viewerJs, stencilsDir, diagram, outPrefix] = process.argv.slice(2);
const chromium = process.env.QUIRE_CHROMIUM || "/usr/bin/chromium";
const ORIGIN = "http://drawio.invalid";
const PAGE = `<!doctype html><html><head><meta charset="utf-8">
<style>@page { margin: 0 } body { margin: 0 }</style>
<script>window.STENCIL_PATH = "stencils"; window.SHAPES_PATH = "shapes";
window.IMAGE_PATH = "images"; window.mxLoadResources = false;</script>
<script src="/viewer.js"></script></head><body><div id="host"></div></body></html>`;

const browser = await puppeteer.launch({
  executablePath: chromium,
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
});
try {
  const page = await browser.newPage();
  // Wide enough that the viewer draws every page at its own size, not fitted to a window.
  await page.setViewport({ width: 8000, height: 2000 });
  await page.setRequestInterception(true);
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.origin !== ORIGIN) return request.abort();
    if (url.pathname === "/viewer.js") {
      return request.respond({ contentType: "text/javascript", body: readFileSync(viewerJs) });
    }
    if (url.pathname === "/") {
      return request.respond({ contentType: "text/html", body: PAGE });
    }
    const stencil = url.pathname.match(/^\/stencils\/([a-z0-9_\/-]+\.xml)$/i);
    if (stencil) {
      const file = path.join(stencilsDir, stencil[1].toLowerCase());
      if (existsSync(file)) {
        return request.respond({ contentType: "text/xml", body: readFileSync(file) });
      }
      return request.respond({ status: 404, body: "" });
    }
    // Shape scripts are already inside the static viewer; pictures stay offline.
    if (url.pathname.endsWith(".js")) {
      return request.respond({ contentType: "text/javascript", body: "" });
    }
    return request.respond({ status: 404, body: "" });
  });
  await page.goto(ORIGIN + "/");
  const xml = readFileSync(diagram, "utf8");
  const pages = await page.evaluate((xml) => {
    const doc = mxUtils.parseXml(xml);
    const root = doc.documentElement;
    return root.nodeName === "mxfile" ? root.getElementsByTagName("diagram").length : 1;
  }, xml);
  for (let i = 0; i < pages; i++) {
    const box = await page.evaluate(async (xml, i) => {
      const host = document.getElementById("host");
      host.innerHTML = "";
      const div = document.createElement("div");
      host.appendChild(div);
      const viewer = new GraphViewer(div, mxUtils.parseXml(xml).documentElement, {
        page: i, toolbar: null, nav: false, lightbox: false, resize: true, border: 10,
        highlight: "none", "auto-fit": false,
      });
      // Stencil libraries load synchronously; give pictures and fonts a moment.
      await new Promise((r) => setTimeout(r, 300));
      // The page is what the diagram draws plus the viewer's border, wherever it lies.
      const svg = div.querySelector("svg");
      const b = viewer.graph.getGraphBounds();
      const pad = 10;
      const [x, y, w, h] = [b.x - pad, b.y - pad, b.width + 2 * pad, b.height + 2 * pad];
      svg.setAttribute("viewBox", `${x} ${y} ${w} ${h}`);
      svg.setAttribute("width", w);
      svg.setAttribute("height", h);
      svg.style.minWidth = svg.style.minHeight = svg.style.maxWidth = "";
      svg.style.width = `${w}px`;
      svg.style.height = `${h}px`;
      return { w: Math.ceil(w), h: Math.ceil(h) };
    }, xml, i);
    await page.pdf({
      path: `${outPrefix}-${i + 1}.pdf`,
      width: `${Math.max(box.w, 20)}px`,
      height: `${Math.max(box.h, 20)}px`,
      printBackground: true,
      pageRanges: "1",
    });
  }
  console.log(pages);
} finally {
  await browser.close();
}
