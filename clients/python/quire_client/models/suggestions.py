from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.suggestion import Suggestion





T = TypeVar("T", bound="Suggestions")



@_attrs_define
class Suggestions:
    """ GET /forms/{id}/suggest: boxes found on a page.

        Attributes:
            ok (Literal[True]):
            fields (list[Suggestion]):
     """

    ok: Literal[True]
    fields: list[Suggestion]





    def to_dict(self) -> dict[str, Any]:
        from ..models.suggestion import Suggestion # noqa: PLC0415
        ok = self.ok

        fields = []
        for fields_item_data in self.fields:
            fields_item = fields_item_data.to_dict()
            fields.append(fields_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "ok": ok,
            "fields": fields,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.suggestion import Suggestion # noqa: PLC0415
        d = dict(src_dict)
        ok = cast(Literal[True] , d.pop("ok"))
        if ok != True:
            raise ValueError(f"ok must match const True, got '{ok}'")

        fields = []
        _fields = d.pop("fields")
        for fields_item_data in (_fields):
            fields_item = Suggestion.from_dict(fields_item_data)



            fields.append(fields_item)


        suggestions = cls(
            ok=ok,
            fields=fields,
        )

        return suggestions

