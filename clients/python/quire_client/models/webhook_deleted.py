from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import Literal, cast






T = TypeVar("T", bound="WebhookDeleted")



@_attrs_define
class WebhookDeleted:
    """ 
        Attributes:
            ok (Literal[True]):
            deleted (str): The endpoint's id.
     """

    ok: Literal[True]
    deleted: str





    def to_dict(self) -> dict[str, Any]:
        ok = self.ok

        deleted = self.deleted


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "ok": ok,
            "deleted": deleted,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        ok = cast(Literal[True] , d.pop("ok"))
        if ok != True:
            raise ValueError(f"ok must match const True, got '{ok}'")

        deleted = d.pop("deleted")

        webhook_deleted = cls(
            ok=ok,
            deleted=deleted,
        )

        return webhook_deleted

