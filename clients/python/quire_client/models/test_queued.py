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





T = TypeVar("T", bound="TestQueued")



@_attrs_define
class TestQueued:
    """ A test event queued.

        Attributes:
            ok (Literal[True]):
            delivery (DeliveryView): One delivery of the log. Times are seconds since 1970.
     """

    ok: Literal[True]
    delivery: DeliveryView





    def to_dict(self) -> dict[str, Any]:
        from ..models.delivery_view import DeliveryView # noqa: PLC0415
        ok = self.ok

        delivery = self.delivery.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "ok": ok,
            "delivery": delivery,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.delivery_view import DeliveryView # noqa: PLC0415
        d = dict(src_dict)
        ok = cast(Literal[True] , d.pop("ok"))
        if ok != True:
            raise ValueError(f"ok must match const True, got '{ok}'")

        delivery = DeliveryView.from_dict(d.pop("delivery"))




        test_queued = cls(
            ok=ok,
            delivery=delivery,
        )

        return test_queued

