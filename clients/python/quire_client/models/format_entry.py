from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="FormatEntry")



@_attrs_define
class FormatEntry:
    """ 
        Attributes:
            media_type (str):
            extension (str):
     """

    media_type: str
    extension: str





    def to_dict(self) -> dict[str, Any]:
        media_type = self.media_type

        extension = self.extension


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "media_type": media_type,
            "extension": extension,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        media_type = d.pop("media_type")

        extension = d.pop("extension")

        format_entry = cls(
            media_type=media_type,
            extension=extension,
        )

        return format_entry

