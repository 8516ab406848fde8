//! Where the interactive form (AcroForm) plugs in. Form fields are not written yet: field
//! dictionaries, widget annotations and their appearance streams are a separate piece of
//! work. The export calls into [`Form`] at the two places a form attaches to a PDF (each
//! page's `/Annots`, the catalog's `/AcroForm`), so adding it changes only this module.
//! Until then fields are ignored silently: the page content is still drawn in full.

use pdf_writer::writers::Catalog;
use pdf_writer::Ref;
use quire_sdk::Field;

use super::resources::Refs;

pub struct Form<'d> {
    #[allow(dead_code)] // read once widgets are written
    fields: &'d [Field],
}

impl<'d> Form<'d> {
    pub fn new(fields: &'d [Field]) -> Self {
        Form { fields }
    }

    /// Widget annotations of the fields on the document's page `number` (1-based), drawn on
    /// the page object `page`. None yet.
    pub fn widgets(&mut self, number: u32, page: Ref, refs: &mut Refs) -> Vec<Ref> {
        let _ = (number, page, refs);
        Vec::new()
    }

    /// Writes the catalog's `/AcroForm` entry when the export carries a form. Nothing yet.
    pub fn write_catalog_entry(&self, catalog: &mut Catalog) {
        let _ = catalog;
    }
}
