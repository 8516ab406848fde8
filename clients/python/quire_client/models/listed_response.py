from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.listed_response_values import ListedResponseValues





T = TypeVar("T", bound="ListedResponse")



@_attrs_define
class ListedResponse:
    """ One response in a list.

        Attributes:
            id (str):
            doc_id (str):
            via (str): `api` or `link`.
            submitted_at (float): Unix seconds.
            summary (str):
            values (ListedResponseValues):
            respondent (None | str | Unset):
            document (None | str | Unset): The filled copy's document id; null once purged from the bin.
     """

    id: str
    doc_id: str
    via: str
    submitted_at: float
    summary: str
    values: ListedResponseValues
    respondent: None | str | Unset = UNSET
    document: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.listed_response_values import ListedResponseValues # noqa: PLC0415
        id = self.id

        doc_id = self.doc_id

        via = self.via

        submitted_at = self.submitted_at

        summary = self.summary

        values = self.values.to_dict()

        respondent: None | str | Unset
        if isinstance(self.respondent, Unset):
            respondent = UNSET
        else:
            respondent = self.respondent

        document: None | str | Unset
        if isinstance(self.document, Unset):
            document = UNSET
        else:
            document = self.document


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "doc_id": doc_id,
            "via": via,
            "submitted_at": submitted_at,
            "summary": summary,
            "values": values,
        })
        if respondent is not UNSET:
            field_dict["respondent"] = respondent
        if document is not UNSET:
            field_dict["document"] = document

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.listed_response_values import ListedResponseValues # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        doc_id = d.pop("doc_id")

        via = d.pop("via")

        submitted_at = d.pop("submitted_at")

        summary = d.pop("summary")

        values = ListedResponseValues.from_dict(d.pop("values"))




        def _parse_respondent(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        respondent = _parse_respondent(d.pop("respondent", UNSET))


        def _parse_document(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        document = _parse_document(d.pop("document", UNSET))


        listed_response = cls(
            id=id,
            doc_id=doc_id,
            via=via,
            submitted_at=submitted_at,
            summary=summary,
            values=values,
            respondent=respondent,
            document=document,
        )

        return listed_response

