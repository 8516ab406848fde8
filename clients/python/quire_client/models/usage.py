from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.calls import Calls
  from ..models.storage import Storage





T = TypeVar("T", bound="Usage")



@_attrs_define
class Usage:
    """ GET /usage. `null` allowances are unlimited.

        Attributes:
            ok (Literal[True]):
            day (str): The UTC day the counts are for, `YYYY-MM-DD`.
            calls (Calls):
            storage (Storage): Bytes.
     """

    ok: Literal[True]
    day: str
    calls: Calls
    storage: Storage





    def to_dict(self) -> dict[str, Any]:
        from ..models.calls import Calls # noqa: PLC0415
        from ..models.storage import Storage # noqa: PLC0415
        ok = self.ok

        day = self.day

        calls = self.calls.to_dict()

        storage = self.storage.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "ok": ok,
            "day": day,
            "calls": calls,
            "storage": storage,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.calls import Calls # noqa: PLC0415
        from ..models.storage import Storage # noqa: PLC0415
        d = dict(src_dict)
        ok = cast(Literal[True] , d.pop("ok"))
        if ok != True:
            raise ValueError(f"ok must match const True, got '{ok}'")

        day = d.pop("day")

        calls = Calls.from_dict(d.pop("calls"))




        storage = Storage.from_dict(d.pop("storage"))




        usage = cls(
            ok=ok,
            day=day,
            calls=calls,
            storage=storage,
        )

        return usage

