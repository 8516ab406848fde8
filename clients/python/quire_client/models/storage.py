from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="Storage")



@_attrs_define
class Storage:
    """ Bytes.

        Attributes:
            used (int):
            largest_file (int):
            quota (int | None | Unset):
            left (int | None | Unset):
     """

    used: int
    largest_file: int
    quota: int | None | Unset = UNSET
    left: int | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        used = self.used

        largest_file = self.largest_file

        quota: int | None | Unset
        if isinstance(self.quota, Unset):
            quota = UNSET
        else:
            quota = self.quota

        left: int | None | Unset
        if isinstance(self.left, Unset):
            left = UNSET
        else:
            left = self.left


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "used": used,
            "largest_file": largest_file,
        })
        if quota is not UNSET:
            field_dict["quota"] = quota
        if left is not UNSET:
            field_dict["left"] = left

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        used = d.pop("used")

        largest_file = d.pop("largest_file")

        def _parse_quota(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        quota = _parse_quota(d.pop("quota", UNSET))


        def _parse_left(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        left = _parse_left(d.pop("left", UNSET))


        storage = cls(
            used=used,
            largest_file=largest_file,
            quota=quota,
            left=left,
        )

        return storage

