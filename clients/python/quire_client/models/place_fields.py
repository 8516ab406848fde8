from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.placed_field import PlacedField





T = TypeVar("T", bound="PlaceFields")



@_attrs_define
class PlaceFields:
    """ PUT /forms/{id}/fields: the boxes to place.

        Attributes:
            fields (list[PlacedField]):
            keep (bool | None | Unset): `true` appends to the fields already placed instead of replacing them.
     """

    fields: list[PlacedField]
    keep: bool | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.placed_field import PlacedField # noqa: PLC0415
        fields = []
        for fields_item_data in self.fields:
            fields_item = fields_item_data.to_dict()
            fields.append(fields_item)



        keep: bool | None | Unset
        if isinstance(self.keep, Unset):
            keep = UNSET
        else:
            keep = self.keep


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "fields": fields,
        })
        if keep is not UNSET:
            field_dict["keep"] = keep

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.placed_field import PlacedField # noqa: PLC0415
        d = dict(src_dict)
        fields = []
        _fields = d.pop("fields")
        for fields_item_data in (_fields):
            fields_item = PlacedField.from_dict(fields_item_data)



            fields.append(fields_item)


        def _parse_keep(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        keep = _parse_keep(d.pop("keep", UNSET))


        place_fields = cls(
            fields=fields,
            keep=keep,
        )

        return place_fields

