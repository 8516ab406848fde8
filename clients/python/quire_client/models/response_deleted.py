from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast






T = TypeVar("T", bound="ResponseDeleted")



@_attrs_define
class ResponseDeleted:
    """ 
        Attributes:
            ok (Literal[True]):
            deleted (str): The response's id.
            binned (None | str | Unset): The filled copy moved to the bin, if there was one and it was not kept.
     """

    ok: Literal[True]
    deleted: str
    binned: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        ok = self.ok

        deleted = self.deleted

        binned: None | str | Unset
        if isinstance(self.binned, Unset):
            binned = UNSET
        else:
            binned = self.binned


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "ok": ok,
            "deleted": deleted,
        })
        if binned is not UNSET:
            field_dict["binned"] = binned

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        ok = cast(Literal[True] , d.pop("ok"))
        if ok != True:
            raise ValueError(f"ok must match const True, got '{ok}'")

        deleted = d.pop("deleted")

        def _parse_binned(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        binned = _parse_binned(d.pop("binned", UNSET))


        response_deleted = cls(
            ok=ok,
            deleted=deleted,
            binned=binned,
        )

        return response_deleted

