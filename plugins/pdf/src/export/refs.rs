//! Object numbers for one PDF being written.

use pdf_writer::Ref;

/// Hands out object numbers; pdf-writer panics on a number used twice, so every object gets
/// its number here and nowhere else.
#[derive(Debug)]
pub struct Refs {
    next: i32,
}

impl Refs {
    pub fn new() -> Self {
        Refs { next: 1 }
    }

    pub fn alloc(&mut self) -> Ref {
        let r = Ref::new(self.next);
        self.next += 1;
        r
    }
}
