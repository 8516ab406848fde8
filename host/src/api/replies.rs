//! The API's JSON replies as types. Each handler returns one of these, and its route names
//! the same type (`Route::gives`), from which the OpenAPI document derives the success
//! schema: what a client receives and what the document promises are one definition, and
//! schemathesis checks every reply against it. (A form's answers, what a respondent sends,
//! are `requests::Answers`; the rules they meet are `forms::answer_rules`.)

use std::borrow::Cow;

use quire_sdk::{Field, FieldType, Kind, Rect};
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

use super::urls::Urls;
use crate::documents::DocRow;
use crate::forms::responses::ResponseRow;
use crate::forms::{self, shares::Share, FormRow};
use crate::page_urls::PageUrls as _;

/// The `ok` member of every success, which is always `true`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Succeeded;

impl Serialize for Succeeded {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bool(true)
    }
}

impl JsonSchema for Succeeded {
    fn schema_name() -> Cow<'static, str> {
        "Succeeded".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        schemars::json_schema!({"const": true})
    }
}

/// The document model, by reference: its full schema is `GET /api/v1/model.schema.json`
/// (the OpenAPI document names it `Model`).
#[derive(Debug, Serialize)]
#[serde(transparent)]
pub struct Model(pub Value);

impl JsonSchema for Model {
    fn schema_name() -> Cow<'static, str> {
        "Model".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        schemars::json_schema!({"$ref": "#/components/schemas/Model"})
    }
}

/// What the caller is to the document: API tokens act for the owner.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Owner,
}

/// Where a document can be read, downloaded and opened.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Links {
    #[serde(rename = "self")]
    pub this: String,
    pub pdf: String,
    pub svg: String,
    pub png: String,
    pub model: String,
    pub mermaid: String,
    /// The document's page in a browser.
    pub open: String,
}

impl Links {
    pub fn new(base: &str, id: &str) -> Links {
        let urls = Urls(base);
        let doc = urls.api_document(id);
        Links {
            pdf: format!("{doc}.pdf"),
            svg: format!("{doc}.svg"),
            png: format!("{doc}.png"),
            model: format!("{doc}.json"),
            mermaid: format!("{doc}.mmd"),
            open: urls.document(id),
            this: doc,
        }
    }
}

/// A form's links: its document's, and the form's own.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct FormLinks {
    #[serde(flatten)]
    pub document: Links,
    pub form: String,
    pub fields: String,
    pub responses: String,
    pub csv: String,
    /// The public page where anyone with the link fills the form.
    pub fill: String,
}

impl FormLinks {
    pub fn new(base: &str, id: &str) -> FormLinks {
        let urls = Urls(base);
        let form = urls.api_form(id);
        FormLinks {
            document: Links::new(base, id),
            fields: format!("{form}/fields"),
            responses: format!("{form}/responses"),
            csv: format!("{form}/responses.csv"),
            fill: urls.fill(id),
            form,
        }
    }
}

/// One document's row.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Document<L> {
    pub id: String,
    pub title: String,
    pub kind: Kind,
    pub pages: i64,
    pub shapes: i64,
    pub version: i64,
    /// Unix seconds.
    pub created: f64,
    /// Unix seconds.
    pub updated: f64,
    pub your_role: Role,
    pub links: L,
    /// The model, with `include=model`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<Model>,
}

impl Document<Links> {
    pub fn new(base: &str, d: &DocRow) -> Self {
        Document::with_links(d, Links::new(base, &d.id))
    }
}

impl<L> Document<L> {
    fn with_links(d: &DocRow, links: L) -> Self {
        Document {
            id: d.id.clone(),
            title: d.title.clone(),
            kind: d.kind,
            pages: d.pages,
            shapes: d.shapes,
            version: d.version,
            created: d.created,
            updated: d.updated,
            your_role: Role::Owner,
            links,
            data: None,
        }
    }
}

/// A create, replace or read of a document.
#[derive(Debug, Serialize, JsonSchema)]
// Clients know the schema by its name from before the rename.
#[schemars(deny_unknown_fields, rename = "DocumentAnswer")]
pub struct DocumentReply {
    pub ok: Succeeded,
    pub document: Document<Links>,
    /// What the conversion could not keep, one sentence each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct DocumentList {
    pub ok: Succeeded,
    /// How many documents there are, beyond this page too.
    pub total: i64,
    pub documents: Vec<Document<Links>>,
}

/// A document moved to the bin.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Binned {
    pub ok: Succeeded,
    /// The document's id.
    pub binned: String,
}

/// One question of a form.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Question {
    pub key: String,
    #[serde(rename = "type")]
    pub field_type: FieldType,
    pub label: String,
    pub required: bool,
    pub page: u32,
    /// The answers a radio, select or list offers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
}

impl Question {
    pub fn new(f: &Field) -> Question {
        Question {
            key: f.key.clone(),
            field_type: f.field_type,
            label: f.label.clone(),
            required: f.required,
            page: f.page,
            options: f.options.clone(),
        }
    }

    pub fn all(fields: &[Field]) -> Vec<Question> {
        fields.iter().map(Question::new).collect()
    }
}

/// A question with its box on the page, in points from the page's top left.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct PlacedQuestion {
    #[serde(flatten)]
    pub question: Question,
    #[serde(flatten)]
    pub frame: Rect,
}

impl PlacedQuestion {
    pub fn new(f: &Field) -> PlacedQuestion {
        PlacedQuestion {
            question: Question::new(f),
            frame: f.frame,
        }
    }
}

/// A form's settings, once its owner set any.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Settings {
    pub multiple: bool,
    pub notify: bool,
    pub confirm: String,
}

/// A form's state: how many questions and responses, open or closed.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct FormStatus {
    /// How many questions.
    pub count: i64,
    pub open: bool,
    pub responses: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fields: Option<Vec<Question>>,
    #[serde(flatten)]
    pub settings: Option<Settings>,
}

impl FormStatus {
    pub fn new(f: &FormRow, questions: Option<&[Field]>) -> FormStatus {
        FormStatus {
            count: f.questions,
            open: f.settings.open,
            responses: f.responses,
            fields: questions.map(Question::all),
            settings: f.settings.configured.then(|| Settings {
                multiple: f.settings.multiple,
                notify: f.settings.notify,
                confirm: f
                    .settings
                    .confirm
                    .clone()
                    .unwrap_or_else(|| forms::DEFAULT_CONFIRM.to_string()),
            }),
        }
    }
}

/// A whole form: its document's row, its state and its links.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Form {
    #[serde(flatten)]
    pub document: Document<FormLinks>,
    pub form: FormStatus,
}

impl Form {
    pub fn new(base: &str, f: &FormRow, questions: Option<&[Field]>) -> Form {
        Form {
            document: Document::with_links(&f.doc, FormLinks::new(base, &f.doc.id)),
            form: FormStatus::new(f, questions),
        }
    }
}

/// A create, replace or read of a form.
#[derive(Debug, Serialize, JsonSchema)]
// Clients know the schema by its name from before the rename.
#[schemars(deny_unknown_fields, rename = "FormAnswer")]
pub struct FormReply {
    pub ok: Succeeded,
    pub form: Form,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// PATCH /forms/{id}. The contract's answer is `{ok, form: {count, open, multiple,
/// confirm, responses}}`: the state sits directly under `form`. The whole form is kept
/// beside it (with its own `form` member), so a client reading a form finds one too.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct PatchedForm {
    pub ok: Succeeded,
    pub form: PatchedFormMember,
}

#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct PatchedFormMember {
    #[serde(flatten)]
    pub form: Form,
    #[serde(flatten)]
    pub state: FormStatus,
}

/// One form in a list.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ListedForm {
    pub id: String,
    pub title: String,
    pub kind: Kind,
    pub pages: i64,
    /// How many questions.
    pub fields: i64,
    pub open: bool,
    pub responses: i64,
    pub your_role: Role,
    pub links: FormLinks,
}

impl ListedForm {
    pub fn new(base: &str, f: &FormRow) -> ListedForm {
        ListedForm {
            id: f.doc.id.clone(),
            title: f.doc.title.clone(),
            kind: f.doc.kind,
            pages: f.doc.pages,
            fields: f.questions,
            open: f.settings.open,
            responses: f.responses,
            your_role: Role::Owner,
            links: FormLinks::new(base, &f.doc.id),
        }
    }
}

#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct FormList {
    pub ok: Succeeded,
    pub total: i64,
    pub forms: Vec<ListedForm>,
}

/// GET /forms/{id}/fields.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Questions {
    pub ok: Succeeded,
    pub fields: Vec<Question>,
    pub form: FormStatus,
}

/// PUT /forms/{id}/fields: every field now placed.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct PlacedFields {
    pub ok: Succeeded,
    pub fields: Vec<PlacedQuestion>,
    /// How many questions (boxes sharing a key are one).
    pub count: i64,
    /// The document's version after the change.
    pub version: i64,
}

/// GET /forms/{id}/suggest: boxes found on a page.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Suggestions {
    pub ok: Succeeded,
    pub fields: Vec<Suggestion>,
}

/// A box found on a page. It is a guess: no question text (`label` is empty) and no
/// `required` until a person says so.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Suggestion {
    pub key: String,
    #[serde(rename = "type")]
    pub field_type: FieldType,
    #[schemars(length(max = 0))]
    pub label: String,
    pub page: u32,
    #[serde(flatten)]
    pub frame: Rect,
}

impl Suggestion {
    pub fn new(f: &Field) -> Suggestion {
        Suggestion {
            key: f.key.clone(),
            field_type: f.field_type,
            label: String::new(),
            page: f.page,
            frame: f.frame,
        }
    }
}

/// One response in a list.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ListedResponse {
    pub id: String,
    pub doc_id: String,
    pub respondent: Option<String>,
    /// `api` or `link`.
    pub via: String,
    /// Unix seconds.
    pub submitted_at: f64,
    pub summary: String,
    /// The filled copy's document id; null once purged from the bin.
    pub document: Option<String>,
    pub values: Map<String, Value>,
}

impl ListedResponse {
    pub fn new(r: &ResponseRow) -> ListedResponse {
        ListedResponse {
            id: r.id.clone(),
            doc_id: r.form_id.clone(),
            respondent: r.from.clone(),
            via: r.via.clone(),
            submitted_at: r.submitted,
            summary: r.summary.clone(),
            document: r.document.clone(),
            values: r.answers.clone(),
        }
    }
}

#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ResponseList {
    pub ok: Succeeded,
    pub total: i64,
    pub fields: Vec<Question>,
    pub responses: Vec<ListedResponse>,
}

/// One response; a submission's answer leaves out the answers it was sent.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Response {
    pub id: String,
    pub from: Option<String>,
    pub via: String,
    /// Unix seconds.
    pub submitted: f64,
    pub document: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answers: Option<Map<String, Value>>,
}

impl Response {
    pub fn new(r: ResponseRow, with_answers: bool) -> Response {
        Response {
            id: r.id,
            from: r.from,
            via: r.via,
            submitted: r.submitted,
            document: r.document,
            answers: with_answers.then_some(r.answers),
        }
    }
}

#[derive(Debug, Serialize, JsonSchema)]
// Clients know the schema by its name from before the rename.
#[schemars(deny_unknown_fields, rename = "ResponseAnswer")]
pub struct ResponseReply {
    pub ok: Succeeded,
    pub response: Response,
}

#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ResponseDeleted {
    pub ok: Succeeded,
    /// The response's id.
    pub deleted: String,
    /// The filled copy moved to the bin, if there was one and it was not kept.
    pub binned: Option<String>,
}

/// One invitation.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Invited {
    pub email: String,
    pub mode: String,
    /// Unix seconds.
    pub added: f64,
}

/// Who a form was sent to, after the change.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Shares {
    pub ok: Succeeded,
    pub shares: Vec<Invited>,
}

impl Shares {
    pub fn new(list: Vec<Share>) -> Shares {
        Shares {
            ok: Succeeded,
            shares: list
                .into_iter()
                .map(|s| Invited {
                    email: s.email,
                    mode: s.mode,
                    added: s.added,
                })
                .collect(),
        }
    }
}

/// GET /usage. `null` allowances are unlimited.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Usage {
    pub ok: Succeeded,
    /// The UTC day the counts are for, `YYYY-MM-DD`.
    pub day: String,
    pub calls: Calls,
    pub storage: Storage,
}

#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Calls {
    pub today: i64,
    pub allowed: Option<i64>,
    pub left: Option<i64>,
}

/// Bytes.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Storage {
    pub used: i64,
    pub quota: Option<i64>,
    pub left: Option<i64>,
    pub largest_file: i64,
}

/// GET /api/v1: what the API offers right now.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Surface {
    pub ok: Succeeded,
    pub version: u32,
    /// The OpenAPI document.
    pub docs: String,
    pub authentication: Authentication,
    /// `METHOD /path` of every read.
    pub read: Vec<String>,
    /// `METHOD /path` of every write.
    pub write: Vec<String>,
    pub formats: SurfaceFormats,
    pub fonts: SurfaceFonts,
}

#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Authentication {
    pub grant: String,
    pub token_endpoint: String,
    #[serde(rename = "use")]
    pub how: String,
    pub scopes: Vec<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct SurfaceFormats {
    /// What creates and replaces take.
    pub readable: Vec<FormatEntry>,
    /// What `GET /documents/{id}.{extension}` gives.
    pub downloads: Vec<DownloadEntry>,
}

/// The fonts this host draws text with beyond the standard PDF fonts: what documents in
/// other scripts will look like here. Files are not named; `quire fonts list` on the host
/// shows them.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct SurfaceFonts {
    /// sha256 (hex) over the file names, sizes and face indexes of the library: hosts with
    /// the same digest lay text out alike.
    pub digest: String,
    /// By name.
    pub families: Vec<SurfaceFontFamily>,
    /// ISO 15924 codes of the scripts (with `Zsym` symbols and `Zmth` maths) no installed
    /// font draws: their characters come out as `?`.
    pub missing: Vec<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct SurfaceFontFamily {
    pub family: String,
    /// Among `Regular`, `Bold`, `Italic`, `Bold Italic`.
    pub styles: Vec<String>,
    /// ISO 15924 codes of the scripts the family covers (90% of a sample of basic letters).
    pub scripts: Vec<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct FormatEntry {
    pub media_type: String,
    pub extension: String,
}

/// A download format and the kinds of document it fits (the pages offer it only for these;
/// the API serves it for every document).
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct DownloadEntry {
    pub media_type: String,
    pub extension: String,
    pub kinds: Vec<Kind>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema_of<T: JsonSchema>() -> Value {
        serde_json::to_value(schemars::schema_for!(T)).unwrap()
    }

    #[test]
    fn a_flattened_reply_lists_every_member_and_no_other() {
        let form = schema_of::<PatchedForm>();
        let member = &form["$defs"]["PatchedFormMember"];
        assert_eq!(member["additionalProperties"], false, "{member:#}");
        let names: Vec<&str> = member["properties"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        for name in [
            "id", "links", "form", "count", "open", "multiple", "confirm",
        ] {
            assert!(names.contains(&name), "{name} missing from {names:?}");
        }
    }

    #[test]
    fn members_left_out_when_empty_are_optional() {
        let reply = schema_of::<DocumentReply>();
        let required = reply["required"].as_array().unwrap();
        assert!(required.contains(&Value::from("document")));
        assert!(!required.contains(&Value::from("warnings")));
        let question = &schema_of::<Questions>()["$defs"]["Question"];
        assert!(!question["required"]
            .as_array()
            .unwrap()
            .contains(&Value::from("options")));
    }
}
