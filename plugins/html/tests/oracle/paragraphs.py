"""Independent oracle for the HTML importer's tests: the text of every <p> a reader sees,
one JSON string per line, read with Python's own html.parser (not html5ever).

Skipped: paragraphs inside elements whose content is not shown (script, style, head, svg,
template, noscript, form controls, embedded objects), inside `hidden` or `display:none`
elements, and paragraphs holding MathML (written as text differently on purpose).
"""
import json
import sys
from html.parser import HTMLParser

HIDDEN = {"script", "style", "head", "svg", "template", "noscript", "textarea", "select",
          "button", "object", "iframe", "video", "audio", "canvas", "title", "option"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr", "param"}
# Start tags that end an open <p> in HTML.
CLOSES_P = {"address", "article", "aside", "blockquote", "details", "div", "dl", "fieldset",
            "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6",
            "header", "hgroup", "hr", "main", "menu", "nav", "ol", "p", "pre", "section",
            "table", "ul"}


def hides(tag, attrs):
    a = dict(attrs)
    style = (a.get("style") or "").replace(" ", "").lower()
    return tag in HIDDEN or "hidden" in a or "display:none" in style.split(";")


class Paragraphs(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []  # (tag, hides)
        self.out = []
        self.current = None  # [text parts, has_math]

    def hidden(self):
        return any(h for _, h in self.stack)

    def close_p(self):
        if self.current is not None:
            text, math = "".join(self.current[0]), self.current[1]
            if text.strip() and not math:
                self.out.append(" ".join(text.split()))
            self.current = None

    def handle_starttag(self, tag, attrs):
        if tag in CLOSES_P:
            self.close_p()
        if tag == "math" and self.current is not None:
            self.current[1] = True
        if tag in VOID:
            if tag == "br" and self.current is not None:
                self.current[0].append(" ")
            return
        self.stack.append((tag, hides(tag, attrs)))
        if tag == "p" and not self.hidden():
            self.current = [[], False]

    def handle_endtag(self, tag):
        if tag == "p":
            self.close_p()
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        if self.current is not None and not self.hidden():
            self.current[0].append(data)


def main():
    raw = open(sys.argv[1], "rb").read()
    parser = Paragraphs()
    parser.feed(raw.decode("utf-8", errors="replace"))
    parser.close()
    parser.close_p()
    for p in parser.out:
        print(json.dumps(p))


main()
