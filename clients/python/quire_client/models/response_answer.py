from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.response import Response





T = TypeVar("T", bound="ResponseAnswer")



@_attrs_define
class ResponseAnswer:
    """ 
        Attributes:
            ok (Literal[True]):
            response (Response): One response; a submission's answer leaves out the answers it was sent.
     """

    ok: Literal[True]
    response: Response





    def to_dict(self) -> dict[str, Any]:
        from ..models.response import Response # noqa: PLC0415
        ok = self.ok

        response = self.response.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "ok": ok,
            "response": response,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.response import Response # noqa: PLC0415
        d = dict(src_dict)
        ok = cast(Literal[True] , d.pop("ok"))
        if ok != True:
            raise ValueError(f"ok must match const True, got '{ok}'")

        response = Response.from_dict(d.pop("response"))




        response_answer = cls(
            ok=ok,
            response=response,
        )

        return response_answer

