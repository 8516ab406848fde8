from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="Calls")



@_attrs_define
class Calls:
    """ 
        Attributes:
            today (int):
            allowed (int | None | Unset):
            left (int | None | Unset):
     """

    today: int
    allowed: int | None | Unset = UNSET
    left: int | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        today = self.today

        allowed: int | None | Unset
        if isinstance(self.allowed, Unset):
            allowed = UNSET
        else:
            allowed = self.allowed

        left: int | None | Unset
        if isinstance(self.left, Unset):
            left = UNSET
        else:
            left = self.left


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "today": today,
        })
        if allowed is not UNSET:
            field_dict["allowed"] = allowed
        if left is not UNSET:
            field_dict["left"] = left

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        today = d.pop("today")

        def _parse_allowed(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        allowed = _parse_allowed(d.pop("allowed", UNSET))


        def _parse_left(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        left = _parse_left(d.pop("left", UNSET))


        calls = cls(
            today=today,
            allowed=allowed,
            left=left,
        )

        return calls

