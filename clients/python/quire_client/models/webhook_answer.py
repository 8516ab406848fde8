from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.webhook_view import WebhookView





T = TypeVar("T", bound="WebhookAnswer")



@_attrs_define
class WebhookAnswer:
    """ 
        Attributes:
            ok (Literal[True]):
            webhook (WebhookView): An endpoint. `secret` (`whsec_…`, for checking the `webhook-signature` header) is in the
                answer that makes it (a registration or a rotation) and in no other.
     """

    ok: Literal[True]
    webhook: WebhookView





    def to_dict(self) -> dict[str, Any]:
        from ..models.webhook_view import WebhookView # noqa: PLC0415
        ok = self.ok

        webhook = self.webhook.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "ok": ok,
            "webhook": webhook,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_view import WebhookView # noqa: PLC0415
        d = dict(src_dict)
        ok = cast(Literal[True] , d.pop("ok"))
        if ok != True:
            raise ValueError(f"ok must match const True, got '{ok}'")

        webhook = WebhookView.from_dict(d.pop("webhook"))




        webhook_answer = cls(
            ok=ok,
            webhook=webhook,
        )

        return webhook_answer

