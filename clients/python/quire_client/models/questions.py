from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.form_status import FormStatus
  from ..models.question import Question





T = TypeVar("T", bound="Questions")



@_attrs_define
class Questions:
    """ GET /forms/{id}/fields.

        Attributes:
            ok (Literal[True]):
            fields (list[Question]):
            form (FormStatus): A form's state: how many questions and responses, open or closed.
     """

    ok: Literal[True]
    fields: list[Question]
    form: FormStatus





    def to_dict(self) -> dict[str, Any]:
        from ..models.form_status import FormStatus # noqa: PLC0415
        from ..models.question import Question # noqa: PLC0415
        ok = self.ok

        fields = []
        for fields_item_data in self.fields:
            fields_item = fields_item_data.to_dict()
            fields.append(fields_item)



        form = self.form.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "ok": ok,
            "fields": fields,
            "form": form,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.form_status import FormStatus # noqa: PLC0415
        from ..models.question import Question # noqa: PLC0415
        d = dict(src_dict)
        ok = cast(Literal[True] , d.pop("ok"))
        if ok != True:
            raise ValueError(f"ok must match const True, got '{ok}'")

        fields = []
        _fields = d.pop("fields")
        for fields_item_data in (_fields):
            fields_item = Question.from_dict(fields_item_data)



            fields.append(fields_item)


        form = FormStatus.from_dict(d.pop("form"))




        questions = cls(
            ok=ok,
            fields=fields,
            form=form,
        )

        return questions

