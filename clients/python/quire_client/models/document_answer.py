from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.document import Document





T = TypeVar("T", bound="DocumentAnswer")



@_attrs_define
class DocumentAnswer:
    """ A create, replace or read of a document.

        Attributes:
            ok (Literal[True]):
            document (Document): One document's row.
            warnings (list[str] | Unset): What the conversion could not keep, one sentence each.
     """

    ok: Literal[True]
    document: Document
    warnings: list[str] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.document import Document # noqa: PLC0415
        ok = self.ok

        document = self.document.to_dict()

        warnings: list[str] | Unset = UNSET
        if not isinstance(self.warnings, Unset):
            warnings = self.warnings




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "ok": ok,
            "document": document,
        })
        if warnings is not UNSET:
            field_dict["warnings"] = warnings

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.document import Document # noqa: PLC0415
        d = dict(src_dict)
        ok = cast(Literal[True] , d.pop("ok"))
        if ok != True:
            raise ValueError(f"ok must match const True, got '{ok}'")

        document = Document.from_dict(d.pop("document"))




        warnings = cast(list[str], d.pop("warnings", UNSET))


        document_answer = cls(
            ok=ok,
            document=document,
            warnings=warnings,
        )

        return document_answer

