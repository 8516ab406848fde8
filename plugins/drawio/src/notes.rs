//! What the import could not carry over exactly, counted while it runs and told as a few
//! sentences at the end (one per kind, not one per shape).

use std::collections::BTreeMap;

#[derive(Debug, Default)]
pub struct Notes {
    /// Shape name -> how many were drawn as rectangles.
    pub unknown_shapes: BTreeMap<String, usize>,
    pub stencils_as_boxes: usize,
    pub stencils_as_paths: usize,
    pub external_images: usize,
    pub bad_images: usize,
    pub hidden: usize,
    pub rotated_as_paths: usize,
    pub flattened: usize,
    pub pointless_edges: usize,
    pub duplicate_ids: usize,
    /// Pages whose several layers were merged: (page, layer names).
    pub layers: Vec<(usize, Vec<String>)>,
    pub other: Vec<String>,
}

impl Notes {
    pub fn sentences(&self) -> Vec<String> {
        let mut out = Vec::new();
        if !self.unknown_shapes.is_empty() {
            let total: usize = self.unknown_shapes.values().sum();
            let mut by_count: Vec<(&String, &usize)> = self.unknown_shapes.iter().collect();
            by_count.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
            let names: Vec<String> = by_count
                .iter()
                .take(5)
                .map(|(n, c)| format!("{n} ({c})"))
                .collect();
            let more = if by_count.len() > 5 { ", ..." } else { "" };
            out.push(format!(
                "{total} shapes of kinds the model has no outline for were drawn as \
                 rectangles: {}{more}",
                names.join(", ")
            ));
        }
        let counted = [
            (
                self.stencils_as_paths,
                "stencil shapes (draw.io's shape libraries and custom stencils) were drawn \
                 as groups of paths, with labels beside them as text boxes of their own; a \
                 .drawio export writes each shape back by its own style",
            ),
            (
                self.stencils_as_boxes,
                "custom stencil shapes could not be read and were drawn as rectangles",
            ),
            (
                self.external_images,
                "pictures are linked from the web and were not fetched; a box stands in for \
                 each",
            ),
            (
                self.bad_images,
                "embedded pictures could not be read; a box stands in for each",
            ),
            (self.hidden, "hidden cells were left out"),
            (
                self.rotated_as_paths,
                "rotated or turned shapes were converted to paths",
            ),
            (
                self.flattened,
                "containers nested too deep were flattened into their parent",
            ),
            (
                self.pointless_edges,
                "connector ends had neither a shape nor a point and were put at the origin",
            ),
            (
                self.duplicate_ids,
                "cells reuse an id already taken; connectors find the first",
            ),
        ];
        for (n, what) in counted {
            if n > 0 {
                out.push(format!("{n} {what}"));
            }
        }
        for (page, names) in &self.layers {
            out.push(format!(
                "page {page}: its {} layers ({}) were merged into one",
                names.len(),
                names.join(", ")
            ));
        }
        out.extend(self.other.iter().cloned());
        out
    }
}
