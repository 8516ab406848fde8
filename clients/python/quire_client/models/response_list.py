from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.listed_response import ListedResponse
  from ..models.question import Question





T = TypeVar("T", bound="ResponseList")



@_attrs_define
class ResponseList:
    """ 
        Attributes:
            ok (Literal[True]):
            total (int):
            fields (list[Question]):
            responses (list[ListedResponse]):
     """

    ok: Literal[True]
    total: int
    fields: list[Question]
    responses: list[ListedResponse]





    def to_dict(self) -> dict[str, Any]:
        from ..models.listed_response import ListedResponse # noqa: PLC0415
        from ..models.question import Question # noqa: PLC0415
        ok = self.ok

        total = self.total

        fields = []
        for fields_item_data in self.fields:
            fields_item = fields_item_data.to_dict()
            fields.append(fields_item)



        responses = []
        for responses_item_data in self.responses:
            responses_item = responses_item_data.to_dict()
            responses.append(responses_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "ok": ok,
            "total": total,
            "fields": fields,
            "responses": responses,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.listed_response import ListedResponse # noqa: PLC0415
        from ..models.question import Question # noqa: PLC0415
        d = dict(src_dict)
        ok = cast(Literal[True] , d.pop("ok"))
        if ok != True:
            raise ValueError(f"ok must match const True, got '{ok}'")

        total = d.pop("total")

        fields = []
        _fields = d.pop("fields")
        for fields_item_data in (_fields):
            fields_item = Question.from_dict(fields_item_data)



            fields.append(fields_item)


        responses = []
        _responses = d.pop("responses")
        for responses_item_data in (_responses):
            responses_item = ListedResponse.from_dict(responses_item_data)



            responses.append(responses_item)


        response_list = cls(
            ok=ok,
            total=total,
            fields=fields,
            responses=responses,
        )

        return response_list

