"""Uses the generated client against a live server, as an integrator would. Run by the e2e
test `clients` with QUIRE_URL, QUIRE_CLIENT_ID and QUIRE_CLIENT_SECRET; prints what it saw
as one JSON object, which the Rust side checks."""

import json
import os

import httpx

from quire_client import AuthenticatedClient
from quire_client.api.default import (
    get_documents_id,
    get_forms_id_responses,
    post_forms,
    post_forms_id_responses,
    post_pdfs,
)
from quire_client.models import (
    Answers,
    AnswersAnswers,
    DocumentAnswer,
    Error,
    GetDocumentsIdFormatFormat,
    PostFormsJsonBodyType0,
    PostPdfsFilesBody,
)
from quire_client.types import File

base = os.environ["QUIRE_URL"]
# The token endpoint is OAuth 2.0's, outside the API document: any HTTP client does.
token = httpx.post(
    f"{base}/auth/oauth/token",
    data={"grant_type": "client_credentials"},
    auth=(os.environ["QUIRE_CLIENT_ID"], os.environ["QUIRE_CLIENT_SECRET"]),
).json()["access_token"]
client = AuthenticatedClient(base_url=base, token=token)
seen = {}

# Create from a file (multipart), then download it as PDF.
with open(os.environ["QUIRE_SAMPLE"], "rb") as f:
    upload = PostPdfsFilesBody(file=File(payload=f, file_name="notes.md", mime_type="text/markdown"))
    created = post_pdfs.sync_detailed(client=client, body=upload)
assert isinstance(created.parsed, DocumentAnswer), created.content
doc = created.parsed.document
seen["created"] = {"status": created.status_code, "title": doc.title, "kind": str(doc.kind)}
# The generator models JSON answers only; a file comes through the client's own session.
pdf = client.get_httpx_client().get(f"/api/v1/documents/{doc.id}.{GetDocumentsIdFormatFormat.PDF}")
seen["pdf_head"] = pdf.content[:5].decode("latin-1")

# A form and its answers.
body = PostFormsJsonBodyType0(markdown="# Sign-up\n\nName: ____________\n")
body.additional_properties["fields"] = [
    {"key": "name", "type": "text", "label": "Name", "required": True, "page": 1, "x": 72, "y": 150, "w": 220, "h": 20}
]
form = post_forms.sync_detailed(client=client, body=body, title="Sign-up")
assert form.status_code == 201, form.content
form_id = form.parsed.form.id
answers = AnswersAnswers.from_dict({"name": "Ada"})
answered = post_forms_id_responses.sync_detailed(form_id, client=client, body=Answers(answers=answers, as_="ada@example.org"))
seen["answered"] = answered.status_code
listed = get_forms_id_responses.sync(form_id, client=client)
seen["answers"] = [r.values.to_dict() for r in listed.responses]

# An error comes back as the Error model, with its status.
missing = get_documents_id.sync_detailed("0" * 32, client=client)
seen["missing"] = {
    "status": missing.status_code,
    "is_error": isinstance(missing.parsed, Error),
    "detail": missing.parsed.detail if isinstance(missing.parsed, Error) else None,
}
refused = post_forms_id_responses.sync_detailed(form_id, client=client, body=Answers(answers=AnswersAnswers.from_dict({}), as_="bob@example.org"))
seen["refused"] = {"status": refused.status_code, "is_error": isinstance(refused.parsed, Error)}
print(json.dumps(seen))
