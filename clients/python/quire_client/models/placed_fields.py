from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.placed_question import PlacedQuestion





T = TypeVar("T", bound="PlacedFields")



@_attrs_define
class PlacedFields:
    """ PUT /forms/{id}/fields: every field now placed.

        Attributes:
            ok (Literal[True]):
            fields (list[PlacedQuestion]):
            count (int): How many questions (boxes sharing a key are one).
            version (int): The document's version after the change.
     """

    ok: Literal[True]
    fields: list[PlacedQuestion]
    count: int
    version: int





    def to_dict(self) -> dict[str, Any]:
        from ..models.placed_question import PlacedQuestion # noqa: PLC0415
        ok = self.ok

        fields = []
        for fields_item_data in self.fields:
            fields_item = fields_item_data.to_dict()
            fields.append(fields_item)



        count = self.count

        version = self.version


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "ok": ok,
            "fields": fields,
            "count": count,
            "version": version,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.placed_question import PlacedQuestion # noqa: PLC0415
        d = dict(src_dict)
        ok = cast(Literal[True] , d.pop("ok"))
        if ok != True:
            raise ValueError(f"ok must match const True, got '{ok}'")

        fields = []
        _fields = d.pop("fields")
        for fields_item_data in (_fields):
            fields_item = PlacedQuestion.from_dict(fields_item_data)



            fields.append(fields_item)


        count = d.pop("count")

        version = d.pop("version")

        placed_fields = cls(
            ok=ok,
            fields=fields,
            count=count,
            version=version,
        )

        return placed_fields

