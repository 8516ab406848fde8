from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.answers_answers import AnswersAnswers





T = TypeVar("T", bound="Answers")



@_attrs_define
class Answers:
    """ POST /forms/{id}/responses: answers keyed by the form's field keys.

        Attributes:
            answers (AnswersAnswers):
            as_ (None | str | Unset): Who answers (an address); what `multiple: false` keys on. Not verified.
     """

    answers: AnswersAnswers
    as_: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.answers_answers import AnswersAnswers # noqa: PLC0415
        answers = self.answers.to_dict()

        as_: None | str | Unset
        if isinstance(self.as_, Unset):
            as_ = UNSET
        else:
            as_ = self.as_


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "answers": answers,
        })
        if as_ is not UNSET:
            field_dict["as"] = as_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.answers_answers import AnswersAnswers # noqa: PLC0415
        d = dict(src_dict)
        answers = AnswersAnswers.from_dict(d.pop("answers"))




        def _parse_as_(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        as_ = _parse_as_(d.pop("as", UNSET))


        answers = cls(
            answers=answers,
            as_=as_,
        )

        return answers

