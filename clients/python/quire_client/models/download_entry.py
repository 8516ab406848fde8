from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.kind import Kind
from typing import cast






T = TypeVar("T", bound="DownloadEntry")



@_attrs_define
class DownloadEntry:
    """ A download format and the kinds of document it fits (the pages offer it only for these;
    the API serves it for every document).

        Attributes:
            media_type (str):
            extension (str):
            kinds (list[Kind]):
     """

    media_type: str
    extension: str
    kinds: list[Kind]





    def to_dict(self) -> dict[str, Any]:
        media_type = self.media_type

        extension = self.extension

        kinds = []
        for kinds_item_data in self.kinds:
            kinds_item = kinds_item_data.value
            kinds.append(kinds_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "media_type": media_type,
            "extension": extension,
            "kinds": kinds,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        media_type = d.pop("media_type")

        extension = d.pop("extension")

        kinds = []
        _kinds = d.pop("kinds")
        for kinds_item_data in (_kinds):
            kinds_item = Kind(kinds_item_data)



            kinds.append(kinds_item)


        download_entry = cls(
            media_type=media_type,
            extension=extension,
            kinds=kinds,
        )

        return download_entry

