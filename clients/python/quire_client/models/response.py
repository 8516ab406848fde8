from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.response_answers_type_0 import ResponseAnswersType0





T = TypeVar("T", bound="Response")



@_attrs_define
class Response:
    """ One response; a submission's answer leaves out the answers it was sent.

        Attributes:
            id (str):
            via (str):
            submitted (float): Unix seconds.
            from_ (None | str | Unset):
            document (None | str | Unset):
            answers (None | ResponseAnswersType0 | Unset):
     """

    id: str
    via: str
    submitted: float
    from_: None | str | Unset = UNSET
    document: None | str | Unset = UNSET
    answers: None | ResponseAnswersType0 | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.response_answers_type_0 import ResponseAnswersType0 # noqa: PLC0415
        id = self.id

        via = self.via

        submitted = self.submitted

        from_: None | str | Unset
        if isinstance(self.from_, Unset):
            from_ = UNSET
        else:
            from_ = self.from_

        document: None | str | Unset
        if isinstance(self.document, Unset):
            document = UNSET
        else:
            document = self.document

        answers: dict[str, Any] | None | Unset
        if isinstance(self.answers, Unset):
            answers = UNSET
        elif isinstance(self.answers, ResponseAnswersType0):
            answers = self.answers.to_dict()
        else:
            answers = self.answers


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "via": via,
            "submitted": submitted,
        })
        if from_ is not UNSET:
            field_dict["from"] = from_
        if document is not UNSET:
            field_dict["document"] = document
        if answers is not UNSET:
            field_dict["answers"] = answers

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.response_answers_type_0 import ResponseAnswersType0 # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        via = d.pop("via")

        submitted = d.pop("submitted")

        def _parse_from_(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        from_ = _parse_from_(d.pop("from", UNSET))


        def _parse_document(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        document = _parse_document(d.pop("document", UNSET))


        def _parse_answers(data: object) -> None | ResponseAnswersType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                answers_type_0 = ResponseAnswersType0.from_dict(data)



                return answers_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ResponseAnswersType0 | Unset, data)

        answers = _parse_answers(d.pop("answers", UNSET))


        response = cls(
            id=id,
            via=via,
            submitted=submitted,
            from_=from_,
            document=document,
            answers=answers,
        )

        return response

