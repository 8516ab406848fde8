//! The pages a mail sends a person to, as the domain asks for them: by what they show and
//! its ids. Which route serves each is the HTTP side's to know (`api::urls` answers for
//! the pages of `web::pages`), so no domain module spells a path, and a mail never links to the API, which a browser cannot
//! open without a token.

/// Addresses of pages a person opens in a browser, each from the configured base URL.
pub trait PageUrls: Send + Sync {
    /// Where a one-time sign-in link is used.
    fn sign_in(&self, token: &str) -> String;
    /// The public page where anyone with the link fills the form.
    fn fill(&self, form_id: &str) -> String;
    /// The owner's page of a form: its settings, invitations and responses.
    fn form(&self, form_id: &str) -> String;
    /// The owner's page of one response to a form.
    fn response(&self, form_id: &str, response_id: &str) -> String;
    /// The owner's page of a document.
    fn document(&self, id: &str) -> String;
}
