from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.delivery_view import DeliveryView





T = TypeVar("T", bound="DeliveryLog")



@_attrs_define
class DeliveryLog:
    """ The endpoint's latest deliveries, newest first.

        Attributes:
            ok (Literal[True]):
            deliveries (list[DeliveryView]):
     """

    ok: Literal[True]
    deliveries: list[DeliveryView]





    def to_dict(self) -> dict[str, Any]:
        from ..models.delivery_view import DeliveryView # noqa: PLC0415
        ok = self.ok

        deliveries = []
        for deliveries_item_data in self.deliveries:
            deliveries_item = deliveries_item_data.to_dict()
            deliveries.append(deliveries_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "ok": ok,
            "deliveries": deliveries,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.delivery_view import DeliveryView # noqa: PLC0415
        d = dict(src_dict)
        ok = cast(Literal[True] , d.pop("ok"))
        if ok != True:
            raise ValueError(f"ok must match const True, got '{ok}'")

        deliveries = []
        _deliveries = d.pop("deliveries")
        for deliveries_item_data in (_deliveries):
            deliveries_item = DeliveryView.from_dict(deliveries_item_data)



            deliveries.append(deliveries_item)


        delivery_log = cls(
            ok=ok,
            deliveries=deliveries,
        )

        return delivery_log

