from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="Invited")



@_attrs_define
class Invited:
    """ One invitation.

        Attributes:
            email (str):
            mode (str):
            added (float): Unix seconds.
     """

    email: str
    mode: str
    added: float





    def to_dict(self) -> dict[str, Any]:
        email = self.email

        mode = self.mode

        added = self.added


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "email": email,
            "mode": mode,
            "added": added,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        email = d.pop("email")

        mode = d.pop("mode")

        added = d.pop("added")

        invited = cls(
            email=email,
            mode=mode,
            added=added,
        )

        return invited

