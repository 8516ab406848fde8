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
  from ..models.form import Form





T = TypeVar("T", bound="FormAnswer")



@_attrs_define
class FormAnswer:
    """ A create, replace or read of a form.

        Attributes:
            ok (Literal[True]):
            form (Form): A whole form: its document's row, its state and its links.
            warnings (list[str] | Unset):
     """

    ok: Literal[True]
    form: Form
    warnings: list[str] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.form import Form # noqa: PLC0415
        ok = self.ok

        form = self.form.to_dict()

        warnings: list[str] | Unset = UNSET
        if not isinstance(self.warnings, Unset):
            warnings = self.warnings




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "ok": ok,
            "form": form,
        })
        if warnings is not UNSET:
            field_dict["warnings"] = warnings

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.form import Form # noqa: PLC0415
        d = dict(src_dict)
        ok = cast(Literal[True] , d.pop("ok"))
        if ok != True:
            raise ValueError(f"ok must match const True, got '{ok}'")

        form = Form.from_dict(d.pop("form"))




        warnings = cast(list[str], d.pop("warnings", UNSET))


        form_answer = cls(
            ok=ok,
            form=form,
            warnings=warnings,
        )

        return form_answer

