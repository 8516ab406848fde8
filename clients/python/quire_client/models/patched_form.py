from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.patched_form_member import PatchedFormMember





T = TypeVar("T", bound="PatchedForm")



@_attrs_define
class PatchedForm:
    """ PATCH /forms/{id}. The contract's answer is `{ok, form: {count, open, multiple,
    confirm, responses}}`: the state sits directly under `form`. The whole form is kept
    beside it (with its own `form` member), so a client reading a form finds one too.

        Attributes:
            ok (Literal[True]):
            form (PatchedFormMember): A whole form: its document's row, its state and its links.
     """

    ok: Literal[True]
    form: PatchedFormMember





    def to_dict(self) -> dict[str, Any]:
        from ..models.patched_form_member import PatchedFormMember # noqa: PLC0415
        ok = self.ok

        form = self.form.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "ok": ok,
            "form": form,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.patched_form_member import PatchedFormMember # noqa: PLC0415
        d = dict(src_dict)
        ok = cast(Literal[True] , d.pop("ok"))
        if ok != True:
            raise ValueError(f"ok must match const True, got '{ok}'")

        form = PatchedFormMember.from_dict(d.pop("form"))




        patched_form = cls(
            ok=ok,
            form=form,
        )

        return patched_form

