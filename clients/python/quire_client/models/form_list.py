from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.listed_form import ListedForm





T = TypeVar("T", bound="FormList")



@_attrs_define
class FormList:
    """ 
        Attributes:
            ok (Literal[True]):
            total (int):
            forms (list[ListedForm]):
     """

    ok: Literal[True]
    total: int
    forms: list[ListedForm]





    def to_dict(self) -> dict[str, Any]:
        from ..models.listed_form import ListedForm # noqa: PLC0415
        ok = self.ok

        total = self.total

        forms = []
        for forms_item_data in self.forms:
            forms_item = forms_item_data.to_dict()
            forms.append(forms_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "ok": ok,
            "total": total,
            "forms": forms,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.listed_form import ListedForm # noqa: PLC0415
        d = dict(src_dict)
        ok = cast(Literal[True] , d.pop("ok"))
        if ok != True:
            raise ValueError(f"ok must match const True, got '{ok}'")

        total = d.pop("total")

        forms = []
        _forms = d.pop("forms")
        for forms_item_data in (_forms):
            forms_item = ListedForm.from_dict(forms_item_data)



            forms.append(forms_item)


        form_list = cls(
            ok=ok,
            total=total,
            forms=forms,
        )

        return form_list

