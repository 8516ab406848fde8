//! Column widths, as a browser's automatic table layout sets them: a column asks for its
//! widest word (its minimum) and its longest line (its natural width); a width a cell asks
//! for (`width="120"`) stands for the natural one, a share (`width="6%"`) is that share of
//! the table; cells spanning columns spread what their columns lack over them. A table
//! with a width of its own (`width: 100%`) hands the room left to the columns that asked
//! for no width. A table whose widest words do not fit runs on into the right margin, as a
//! browser lets it overflow, before any word is broken.

use super::{Placed, Row};
use crate::flow::style::CELL_PAD_X;
use crate::flow::Extent;
use crate::layout::{min_content_width, natural_width};

/// The narrowest a column gets before widths are scaled down to fit.
const MIN_COLUMN: f64 = 6.0 + 2.0 * CELL_PAD_X;

/// What one column asks for, padding included.
#[derive(Clone, Copy)]
struct Needs {
    min: f64,
    natural: f64,
    /// A width in points a cell asked for.
    fixed: bool,
    /// A share of the table's width a cell asked for.
    share: Option<f64>,
}

/// The widths of `ncols` columns holding `rows` in `available` points; `table` is the
/// width the table asks for; `overflow` is the room past `available` the widest words may
/// take (into the right margin).
pub(super) fn widths(
    rows: &[Row],
    ncols: usize,
    available: f64,
    table: Option<Extent>,
    overflow: f64,
) -> Vec<f64> {
    resolve(
        &needs(rows, ncols),
        available.max(1.0),
        table,
        overflow.max(0.0),
    )
}

/// How wide the table is when each column has its widest word and no more.
pub(super) fn narrowest(rows: &[Row], ncols: usize) -> f64 {
    needs(rows, ncols).iter().map(|c| c.min).sum()
}

/// What each of `ncols` columns holding `rows` asks for.
fn needs(rows: &[Row], ncols: usize) -> Vec<Needs> {
    let mut needs = vec![
        Needs {
            min: MIN_COLUMN,
            natural: MIN_COLUMN,
            fixed: false,
            share: None,
        };
        ncols
    ];
    let content = |cell: &Placed| {
        (
            min_content_width(&cell.text) + cell.pad_x(),
            natural_width(&cell.text) + cell.pad_x(),
        )
    };
    let mut spanning: Vec<(&Placed, f64, f64)> = Vec::new();
    for cell in rows.iter().flatten() {
        let (min, natural) = content(cell);
        if cell.colspan > 1 {
            spanning.push((cell, min, natural));
            continue;
        }
        let column = &mut needs[cell.col];
        column.min = column.min.max(min);
        column.natural = column.natural.max(natural);
        match cell.width {
            Some(Extent::Points(points)) if points.is_finite() && points > 0.0 => {
                let asked = points + cell.pad_x();
                // The first fixed width replaces the content's natural width; more add.
                column.natural = if column.fixed {
                    column.natural.max(asked)
                } else {
                    asked
                };
                column.fixed = true;
            }
            Some(Extent::Share(share)) if share.is_finite() && share > 0.0 => {
                column.share = Some(column.share.unwrap_or(0.0).max(share.min(1.0)));
            }
            _ => {}
        }
    }
    for column in &mut needs {
        column.natural = column.natural.max(column.min);
    }
    // Narrow spans first, so a wide one sees what the narrow ones already gave.
    spanning.sort_by_key(|(cell, ..)| cell.colspan);
    for (cell, min, natural) in spanning {
        let columns = &mut needs[cell.col..cell.col + cell.colspan];
        spread(columns, min, |c| &mut c.min);
        spread(columns, natural, |c| &mut c.natural);
        for column in columns {
            column.natural = column.natural.max(column.min);
        }
    }
    needs
}

/// Grows `columns` so that together they have at least `want`, each in proportion to its
/// natural width (evenly when they have none).
fn spread(columns: &mut [Needs], want: f64, of: impl Fn(&mut Needs) -> &mut f64) {
    let have: f64 = columns.iter_mut().map(|c| *of(c)).sum();
    if want <= have {
        return;
    }
    let weights: f64 = columns.iter().map(|c| c.natural).sum();
    let n = columns.len() as f64;
    for column in columns {
        let weight = if weights > 0.0 {
            column.natural / weights
        } else {
            1.0 / n
        };
        *of(column) += (want - have) * weight;
    }
}

fn resolve(needs: &[Needs], available: f64, table: Option<Extent>, overflow: f64) -> Vec<f64> {
    let total_min: f64 = needs.iter().map(|c| c.min).sum();
    let shares: f64 = needs.iter().filter_map(|c| c.share).sum();
    let width = match table.and_then(|t| t.of(available)) {
        Some(asked) => asked.min(available),
        None => {
            // As wide as the content, the shares of the columns that ask for one kept.
            let others: f64 = needs
                .iter()
                .filter(|c| c.share.is_none())
                .map(|c| c.natural)
                .sum();
            let mut preferred = if shares < 1.0 {
                others / (1.0 - shares)
            } else {
                available
            };
            for column in needs {
                if let Some(share) = column.share {
                    preferred = preferred.max(column.natural / share);
                }
            }
            preferred.min(available)
        }
    }
    .max(total_min.min(available));
    if total_min > width {
        // The widest words do not fit: each column takes its widest word, into the margin;
        // past that room everything is scaled down (words then break).
        let room = total_min.min(available + overflow);
        return needs.iter().map(|c| c.min * room / total_min).collect();
    }
    let mut out: Vec<f64> = needs
        .iter()
        .map(|c| c.share.map_or(0.0, |s| (s * width).max(c.min)))
        .collect();
    let others_min: f64 = needs
        .iter()
        .filter(|c| c.share.is_none())
        .map(|c| c.min)
        .sum();
    let mut shared: f64 = out.iter().sum();
    if shared > width - others_min {
        // The shares ask for more than the other columns leave: they split what is left,
        // above their minimums.
        let share_min: f64 = needs
            .iter()
            .filter(|c| c.share.is_some())
            .map(|c| c.min)
            .sum();
        let excess = shared - share_min;
        let room = (width - others_min - share_min).max(0.0);
        for (w, c) in out.iter_mut().zip(needs) {
            if c.share.is_some() && excess > 0.0 {
                *w = c.min + (*w - c.min) * room / excess;
            }
        }
        shared = out.iter().sum();
    }
    let rest = width - shared;
    let others: Vec<usize> = (0..needs.len())
        .filter(|&i| needs[i].share.is_none())
        .collect();
    let total_natural: f64 = others.iter().map(|&i| needs[i].natural).sum();
    if total_natural <= rest {
        for &i in &others {
            out[i] = needs[i].natural;
        }
        // Room left over goes to the columns that asked for no width, else to those that
        // asked for points, else to the shares.
        let extra = rest - total_natural;
        let auto: Vec<usize> = others
            .iter()
            .copied()
            .filter(|&i| !needs[i].fixed)
            .collect();
        let takers = if !auto.is_empty() {
            auto
        } else if !others.is_empty() {
            others
        } else {
            (0..needs.len()).collect()
        };
        let weights: f64 = takers.iter().map(|&i| out[i]).sum();
        for &i in &takers {
            out[i] += extra
                * if weights > 0.0 {
                    out[i] / weights
                } else {
                    1.0 / takers.len() as f64
                };
        }
        return out;
    }
    // Every column its widest word, the rest shared in proportion to how much more each
    // would like.
    let want = total_natural - others_min;
    let spare = rest - others_min;
    for &i in &others {
        let c = &needs[i];
        out[i] = c.min
            + if want > 0.0 {
                spare * (c.natural - c.min) / want
            } else {
                0.0
            };
    }
    out
}
