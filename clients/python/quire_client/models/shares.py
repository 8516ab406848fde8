from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.invited import Invited





T = TypeVar("T", bound="Shares")



@_attrs_define
class Shares:
    """ Who a form was sent to, after the change.

        Attributes:
            ok (Literal[True]):
            shares (list[Invited]):
     """

    ok: Literal[True]
    shares: list[Invited]





    def to_dict(self) -> dict[str, Any]:
        from ..models.invited import Invited # noqa: PLC0415
        ok = self.ok

        shares = []
        for shares_item_data in self.shares:
            shares_item = shares_item_data.to_dict()
            shares.append(shares_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "ok": ok,
            "shares": shares,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.invited import Invited # noqa: PLC0415
        d = dict(src_dict)
        ok = cast(Literal[True] , d.pop("ok"))
        if ok != True:
            raise ValueError(f"ok must match const True, got '{ok}'")

        shares = []
        _shares = d.pop("shares")
        for shares_item_data in (_shares):
            shares_item = Invited.from_dict(shares_item_data)



            shares.append(shares_item)


        shares = cls(
            ok=ok,
            shares=shares,
        )

        return shares

