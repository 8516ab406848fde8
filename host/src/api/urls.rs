//! Every absolute address the service hands out, in the API's replies, in mail and in the
//! CLI's output: the configured base URL (never a request's `Host`, see
//! `http::service::BaseUrl`) and a route's path.

use crate::page_urls::PageUrls;

/// The addresses under one base URL.
#[derive(Debug, Clone, Copy)]
pub struct Urls<'a>(pub &'a str);

impl Urls<'_> {
    /// The API's root, which describes the API (`GET /api/v1`).
    pub fn api(&self) -> String {
        format!("{}/api/v1", self.0)
    }

    /// A document in the API; its downloads add `.{format}`.
    pub fn api_document(&self, id: &str) -> String {
        format!("{}/documents/{id}", self.api())
    }

    /// A form in the API; its fields, responses and CSV are below it.
    pub fn api_form(&self, id: &str) -> String {
        format!("{}/forms/{id}", self.api())
    }

    /// The OpenAPI document.
    pub fn openapi(&self) -> String {
        format!("{}/openapi.json", self.api())
    }

    /// The JSON Schema of the document model.
    pub fn model_schema(&self) -> String {
        format!("{}/model.schema.json", self.api())
    }

    /// Where a credential gets an access token.
    pub fn token_endpoint(&self) -> String {
        format!("{}/auth/oauth/token", self.0)
    }
}

impl PageUrls for Urls<'_> {
    fn sign_in(&self, token: &str) -> String {
        format!("{}/signin/{token}", self.0)
    }

    fn fill(&self, form_id: &str) -> String {
        format!("{}/f/{form_id}", self.0)
    }

    fn form(&self, form_id: &str) -> String {
        format!("{}/forms/{form_id}", self.0)
    }

    fn response(&self, form_id: &str, response_id: &str) -> String {
        format!("{}/forms/{form_id}/responses/{response_id}", self.0)
    }

    fn document(&self, id: &str) -> String {
        format!("{}/d/{id}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_mail_links_to_is_a_page_not_the_api() {
        let urls = Urls("https://q.example");
        let pages = [
            urls.sign_in("t1"),
            urls.fill("f1"),
            urls.form("f1"),
            urls.response("f1", "r1"),
            urls.document("d1"),
        ];
        assert_eq!(
            pages,
            [
                "https://q.example/signin/t1",
                "https://q.example/f/f1",
                "https://q.example/forms/f1",
                "https://q.example/forms/f1/responses/r1",
                "https://q.example/d/d1",
            ]
        );
        assert_eq!(
            urls.api_document("d1"),
            "https://q.example/api/v1/documents/d1"
        );
    }
}
