""" Contains all the data models used in inputs/outputs """

from .answers import Answers
from .answers_answers import AnswersAnswers
from .authentication import Authentication
from .binned import Binned
from .calls import Calls
from .delete_forms_id_responses_rid_keep_document import DeleteFormsIdResponsesRidKeepDocument
from .delivery_log import DeliveryLog
from .delivery_view import DeliveryView
from .document import Document
from .document_answer import DocumentAnswer
from .document_list import DocumentList
from .download_entry import DownloadEntry
from .error import Error
from .field_type import FieldType
from .form import Form
from .form_answer import FormAnswer
from .form_links import FormLinks
from .form_list import FormList
from .form_settings import FormSettings
from .form_status import FormStatus
from .format_entry import FormatEntry
from .get_documents_id_format_format import GetDocumentsIdFormatFormat
from .get_documents_id_include import GetDocumentsIdInclude
from .get_documents_kind import GetDocumentsKind
from .get_forms_state import GetFormsState
from .get_model_schema_json_response_200 import GetModelSchemaJsonResponse200
from .get_openapi_json_response_200 import GetOpenapiJsonResponse200
from .import_mode import ImportMode
from .invitation import Invitation
from .invited import Invited
from .kind import Kind
from .links import Links
from .listed_form import ListedForm
from .listed_response import ListedResponse
from .listed_response_values import ListedResponseValues
from .model import Model
from .new_webhook import NewWebhook
from .patched_form import PatchedForm
from .patched_form_member import PatchedFormMember
from .place_fields import PlaceFields
from .placed_field import PlacedField
from .placed_fields import PlacedFields
from .placed_question import PlacedQuestion
from .post_diagrams_files_body import PostDiagramsFilesBody
from .post_diagrams_json_body_type_0 import PostDiagramsJsonBodyType0
from .post_diagrams_json_body_type_1 import PostDiagramsJsonBodyType1
from .post_diagrams_json_body_type_2 import PostDiagramsJsonBodyType2
from .post_diagrams_json_body_type_3 import PostDiagramsJsonBodyType3
from .post_diagrams_json_body_type_4 import PostDiagramsJsonBodyType4
from .post_diagrams_json_body_type_4_model import PostDiagramsJsonBodyType4Model
from .post_diagrams_json_body_type_5 import PostDiagramsJsonBodyType5
from .post_diagrams_mode import PostDiagramsMode
from .post_diagrams_unlock import PostDiagramsUnlock
from .post_forms_detect import PostFormsDetect
from .post_forms_files_body import PostFormsFilesBody
from .post_forms_files_body_detect import PostFormsFilesBodyDetect
from .post_forms_files_body_mode import PostFormsFilesBodyMode
from .post_forms_files_body_unlock import PostFormsFilesBodyUnlock
from .post_forms_json_body_type_0 import PostFormsJsonBodyType0
from .post_forms_json_body_type_1 import PostFormsJsonBodyType1
from .post_forms_json_body_type_2 import PostFormsJsonBodyType2
from .post_forms_json_body_type_3 import PostFormsJsonBodyType3
from .post_forms_json_body_type_4 import PostFormsJsonBodyType4
from .post_forms_json_body_type_4_model import PostFormsJsonBodyType4Model
from .post_forms_json_body_type_5 import PostFormsJsonBodyType5
from .post_forms_mode import PostFormsMode
from .post_forms_unlock import PostFormsUnlock
from .post_pdfs_files_body import PostPdfsFilesBody
from .post_pdfs_files_body_mode import PostPdfsFilesBodyMode
from .post_pdfs_files_body_unlock import PostPdfsFilesBodyUnlock
from .post_pdfs_json_body_type_0 import PostPdfsJsonBodyType0
from .post_pdfs_json_body_type_1 import PostPdfsJsonBodyType1
from .post_pdfs_json_body_type_2 import PostPdfsJsonBodyType2
from .post_pdfs_json_body_type_3 import PostPdfsJsonBodyType3
from .post_pdfs_json_body_type_4 import PostPdfsJsonBodyType4
from .post_pdfs_json_body_type_4_model import PostPdfsJsonBodyType4Model
from .post_pdfs_json_body_type_5 import PostPdfsJsonBodyType5
from .post_pdfs_mode import PostPdfsMode
from .post_pdfs_unlock import PostPdfsUnlock
from .put_diagrams_id_files_body import PutDiagramsIdFilesBody
from .put_diagrams_id_json_body_type_0 import PutDiagramsIdJsonBodyType0
from .put_diagrams_id_json_body_type_1 import PutDiagramsIdJsonBodyType1
from .put_diagrams_id_json_body_type_2 import PutDiagramsIdJsonBodyType2
from .put_diagrams_id_json_body_type_3 import PutDiagramsIdJsonBodyType3
from .put_diagrams_id_json_body_type_4 import PutDiagramsIdJsonBodyType4
from .put_diagrams_id_json_body_type_4_model import PutDiagramsIdJsonBodyType4Model
from .put_diagrams_id_json_body_type_5 import PutDiagramsIdJsonBodyType5
from .put_diagrams_id_mode import PutDiagramsIdMode
from .put_diagrams_id_unlock import PutDiagramsIdUnlock
from .put_forms_id_detect import PutFormsIdDetect
from .put_forms_id_files_body import PutFormsIdFilesBody
from .put_forms_id_files_body_detect import PutFormsIdFilesBodyDetect
from .put_forms_id_files_body_mode import PutFormsIdFilesBodyMode
from .put_forms_id_files_body_unlock import PutFormsIdFilesBodyUnlock
from .put_forms_id_json_body_type_0 import PutFormsIdJsonBodyType0
from .put_forms_id_json_body_type_1 import PutFormsIdJsonBodyType1
from .put_forms_id_json_body_type_2 import PutFormsIdJsonBodyType2
from .put_forms_id_json_body_type_3 import PutFormsIdJsonBodyType3
from .put_forms_id_json_body_type_4 import PutFormsIdJsonBodyType4
from .put_forms_id_json_body_type_4_model import PutFormsIdJsonBodyType4Model
from .put_forms_id_json_body_type_5 import PutFormsIdJsonBodyType5
from .put_forms_id_mode import PutFormsIdMode
from .put_forms_id_unlock import PutFormsIdUnlock
from .put_pdfs_id_files_body import PutPdfsIdFilesBody
from .put_pdfs_id_files_body_mode import PutPdfsIdFilesBodyMode
from .put_pdfs_id_files_body_unlock import PutPdfsIdFilesBodyUnlock
from .put_pdfs_id_json_body_type_0 import PutPdfsIdJsonBodyType0
from .put_pdfs_id_json_body_type_1 import PutPdfsIdJsonBodyType1
from .put_pdfs_id_json_body_type_2 import PutPdfsIdJsonBodyType2
from .put_pdfs_id_json_body_type_3 import PutPdfsIdJsonBodyType3
from .put_pdfs_id_json_body_type_4 import PutPdfsIdJsonBodyType4
from .put_pdfs_id_json_body_type_4_model import PutPdfsIdJsonBodyType4Model
from .put_pdfs_id_json_body_type_5 import PutPdfsIdJsonBodyType5
from .put_pdfs_id_mode import PutPdfsIdMode
from .put_pdfs_id_unlock import PutPdfsIdUnlock
from .question import Question
from .questions import Questions
from .response import Response
from .response_answer import ResponseAnswer
from .response_answers_type_0 import ResponseAnswersType0
from .response_deleted import ResponseDeleted
from .response_list import ResponseList
from .role import Role
from .share_mode import ShareMode
from .shares import Shares
from .storage import Storage
from .suggestion import Suggestion
from .suggestions import Suggestions
from .surface import Surface
from .surface_font_family import SurfaceFontFamily
from .surface_fonts import SurfaceFonts
from .surface_formats import SurfaceFormats
from .test_queued import TestQueued
from .unlock import Unlock
from .usage import Usage
from .webhook_answer import WebhookAnswer
from .webhook_deleted import WebhookDeleted
from .webhook_list import WebhookList
from .webhook_view import WebhookView

__all__ = (
    "Answers",
    "AnswersAnswers",
    "Authentication",
    "Binned",
    "Calls",
    "DeleteFormsIdResponsesRidKeepDocument",
    "DeliveryLog",
    "DeliveryView",
    "Document",
    "DocumentAnswer",
    "DocumentList",
    "DownloadEntry",
    "Error",
    "FieldType",
    "Form",
    "FormAnswer",
    "FormatEntry",
    "FormLinks",
    "FormList",
    "FormSettings",
    "FormStatus",
    "GetDocumentsIdFormatFormat",
    "GetDocumentsIdInclude",
    "GetDocumentsKind",
    "GetFormsState",
    "GetModelSchemaJsonResponse200",
    "GetOpenapiJsonResponse200",
    "ImportMode",
    "Invitation",
    "Invited",
    "Kind",
    "Links",
    "ListedForm",
    "ListedResponse",
    "ListedResponseValues",
    "Model",
    "NewWebhook",
    "PatchedForm",
    "PatchedFormMember",
    "PlacedField",
    "PlacedFields",
    "PlacedQuestion",
    "PlaceFields",
    "PostDiagramsFilesBody",
    "PostDiagramsJsonBodyType0",
    "PostDiagramsJsonBodyType1",
    "PostDiagramsJsonBodyType2",
    "PostDiagramsJsonBodyType3",
    "PostDiagramsJsonBodyType4",
    "PostDiagramsJsonBodyType4Model",
    "PostDiagramsJsonBodyType5",
    "PostDiagramsMode",
    "PostDiagramsUnlock",
    "PostFormsDetect",
    "PostFormsFilesBody",
    "PostFormsFilesBodyDetect",
    "PostFormsFilesBodyMode",
    "PostFormsFilesBodyUnlock",
    "PostFormsJsonBodyType0",
    "PostFormsJsonBodyType1",
    "PostFormsJsonBodyType2",
    "PostFormsJsonBodyType3",
    "PostFormsJsonBodyType4",
    "PostFormsJsonBodyType4Model",
    "PostFormsJsonBodyType5",
    "PostFormsMode",
    "PostFormsUnlock",
    "PostPdfsFilesBody",
    "PostPdfsFilesBodyMode",
    "PostPdfsFilesBodyUnlock",
    "PostPdfsJsonBodyType0",
    "PostPdfsJsonBodyType1",
    "PostPdfsJsonBodyType2",
    "PostPdfsJsonBodyType3",
    "PostPdfsJsonBodyType4",
    "PostPdfsJsonBodyType4Model",
    "PostPdfsJsonBodyType5",
    "PostPdfsMode",
    "PostPdfsUnlock",
    "PutDiagramsIdFilesBody",
    "PutDiagramsIdJsonBodyType0",
    "PutDiagramsIdJsonBodyType1",
    "PutDiagramsIdJsonBodyType2",
    "PutDiagramsIdJsonBodyType3",
    "PutDiagramsIdJsonBodyType4",
    "PutDiagramsIdJsonBodyType4Model",
    "PutDiagramsIdJsonBodyType5",
    "PutDiagramsIdMode",
    "PutDiagramsIdUnlock",
    "PutFormsIdDetect",
    "PutFormsIdFilesBody",
    "PutFormsIdFilesBodyDetect",
    "PutFormsIdFilesBodyMode",
    "PutFormsIdFilesBodyUnlock",
    "PutFormsIdJsonBodyType0",
    "PutFormsIdJsonBodyType1",
    "PutFormsIdJsonBodyType2",
    "PutFormsIdJsonBodyType3",
    "PutFormsIdJsonBodyType4",
    "PutFormsIdJsonBodyType4Model",
    "PutFormsIdJsonBodyType5",
    "PutFormsIdMode",
    "PutFormsIdUnlock",
    "PutPdfsIdFilesBody",
    "PutPdfsIdFilesBodyMode",
    "PutPdfsIdFilesBodyUnlock",
    "PutPdfsIdJsonBodyType0",
    "PutPdfsIdJsonBodyType1",
    "PutPdfsIdJsonBodyType2",
    "PutPdfsIdJsonBodyType3",
    "PutPdfsIdJsonBodyType4",
    "PutPdfsIdJsonBodyType4Model",
    "PutPdfsIdJsonBodyType5",
    "PutPdfsIdMode",
    "PutPdfsIdUnlock",
    "Question",
    "Questions",
    "Response",
    "ResponseAnswer",
    "ResponseAnswersType0",
    "ResponseDeleted",
    "ResponseList",
    "Role",
    "ShareMode",
    "Shares",
    "Storage",
    "Suggestion",
    "Suggestions",
    "Surface",
    "SurfaceFontFamily",
    "SurfaceFonts",
    "SurfaceFormats",
    "TestQueued",
    "Unlock",
    "Usage",
    "WebhookAnswer",
    "WebhookDeleted",
    "WebhookList",
    "WebhookView",
)
