"""Tests of textdoc.py under a plain CPython (no component needed):
python3 -m unittest discover -s plugins/examples/python-text
"""

import json
import unittest

import textdoc


def box(id, x, y, text, h=12.0, size=10.0):
    return {
        "type": "text", "id": id, "x": x, "y": y, "w": 100, "h": h,
        "runs": [{"text": text, "font": "courier", "size": size}],
        "line_height": 1.2,
    }


def model(*pages):
    return json.dumps({
        "model": "quire/1", "kind": "pdf",
        "pages": [{"width": 595.28, "height": 841.89, "shapes": list(p)} for p in pages],
    })


class DocumentText(unittest.TestCase):
    def test_reading_order_top_to_bottom_then_left_to_right(self):
        m = model([box("c", 10, 100, "third"), box("b", 200, 50.5, "right"), box("a", 10, 50, "left")])
        text, warnings = textdoc.document_text(m)
        # 50 -> 62 then 100: a gap of 38 pt is 3 lines of 12 pt.
        self.assertEqual(text, "left right\n\n\n\nthird\n")
        self.assertEqual(warnings, [])

    def test_pages_are_separated_by_a_form_feed_or_a_blank_line(self):
        m = model([box("a", 0, 0, "one")], [box("b", 0, 0, "two")])
        self.assertEqual(textdoc.document_text(m)[0], "one\n\f\ntwo\n")
        self.assertEqual(textdoc.document_text(m, separator="blank")[0], "one\n\ntwo\n")
        self.assertEqual(textdoc.document_text(m, page=2)[0], "two\n")

    def test_groups_and_nodes_are_read(self):
        group = {"type": "group", "id": "g", "x": 0, "y": 0, "w": 50, "h": 50,
                 "children": [{"type": "node", "id": "n", "x": 0, "y": 20, "w": 10, "h": 10,
                               "text": {"runs": [{"text": "inside"}]}}]}
        text, _ = textdoc.document_text(model([group]))
        self.assertEqual(text, "inside\n")

    def test_empty_pages_warn(self):
        text, warnings = textdoc.document_text(model([], [box("a", 0, 0, "x")]))
        self.assertEqual(text, "\f\nx\n")
        self.assertIn("1 page(s) hold no text", warnings[0])

    def test_errors_name_their_kind(self):
        cases = [
            ("{not json", "invalid-request", "not valid JSON"),
            ('{"model": "quire/9", "pages": []}', "invalid-request", "quire/9"),
            ('{"model": "quire/1", "pages": []}', "invalid-request", "at least one page"),
            (model([{"type": "text", "id": "a", "x": "left", "y": 0, "runs": [{"text": "x"}]}]),
             "invalid-request", "pages[0].shapes[0].x"),
        ]
        for source, kind, words in cases:
            with self.assertRaises(textdoc.ModelProblem) as e:
                textdoc.document_text(source)
            self.assertEqual(e.exception.kind, kind)
            self.assertIn(words, e.exception.message)
        with self.assertRaises(textdoc.ModelProblem) as e:
            textdoc.document_text(model([]), page=3)
        self.assertIn("pages run from 1 to 1", e.exception.message)
        with self.assertRaises(textdoc.ModelProblem) as e:
            textdoc.document_text(model([]), separator="tab")
        self.assertEqual(e.exception.kind, "invalid-request")

    def test_deep_nesting_is_refused_without_recursion(self):
        shape = {"type": "text", "id": "leaf", "x": 0, "y": 0, "runs": [{"text": "x"}]}
        for i in range(100):
            shape = {"type": "group", "id": f"g{i}", "x": 0, "y": 0, "w": 1, "h": 1, "children": [shape]}
        with self.assertRaises(textdoc.ModelProblem) as e:
            textdoc.document_text(model([shape]))
        self.assertIn("nest deeper", e.exception.message)


if __name__ == "__main__":
    unittest.main()
