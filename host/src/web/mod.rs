//! The people's side: the account holders' pages (`pages`) and the public form page at
//! /f/{id} (`public`), with the page pictures both show (`page_pictures`). Their answers
//! are HTML for people; they work through the JSON API's own handlers and helpers
//! (`crate::api`), and nothing in the API depends on them.

mod page_pictures;
pub mod pages;
pub mod public;
