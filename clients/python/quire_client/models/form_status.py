from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.question import Question





T = TypeVar("T", bound="FormStatus")



@_attrs_define
class FormStatus:
    """ A form's state: how many questions and responses, open or closed.

        Attributes:
            count (int): How many questions.
            open_ (bool):
            responses (int):
            fields (list[Question] | None | Unset):
            multiple (bool | Unset):
            notify (bool | Unset):
            confirm (str | Unset):
     """

    count: int
    open_: bool
    responses: int
    fields: list[Question] | None | Unset = UNSET
    multiple: bool | Unset = UNSET
    notify: bool | Unset = UNSET
    confirm: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.question import Question # noqa: PLC0415
        count = self.count

        open_ = self.open_

        responses = self.responses

        fields: list[dict[str, Any]] | None | Unset
        if isinstance(self.fields, Unset):
            fields = UNSET
        elif isinstance(self.fields, list):
            fields = []
            for fields_type_0_item_data in self.fields:
                fields_type_0_item = fields_type_0_item_data.to_dict()
                fields.append(fields_type_0_item)


        else:
            fields = self.fields

        multiple = self.multiple

        notify = self.notify

        confirm = self.confirm


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "count": count,
            "open": open_,
            "responses": responses,
        })
        if fields is not UNSET:
            field_dict["fields"] = fields
        if multiple is not UNSET:
            field_dict["multiple"] = multiple
        if notify is not UNSET:
            field_dict["notify"] = notify
        if confirm is not UNSET:
            field_dict["confirm"] = confirm

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.question import Question # noqa: PLC0415
        d = dict(src_dict)
        count = d.pop("count")

        open_ = d.pop("open")

        responses = d.pop("responses")

        def _parse_fields(data: object) -> list[Question] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                fields_type_0 = []
                _fields_type_0 = data
                for fields_type_0_item_data in (_fields_type_0):
                    fields_type_0_item = Question.from_dict(fields_type_0_item_data)



                    fields_type_0.append(fields_type_0_item)

                return fields_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[Question] | None | Unset, data)

        fields = _parse_fields(d.pop("fields", UNSET))


        multiple = d.pop("multiple", UNSET)

        notify = d.pop("notify", UNSET)

        confirm = d.pop("confirm", UNSET)

        form_status = cls(
            count=count,
            open_=open_,
            responses=responses,
            fields=fields,
            multiple=multiple,
            notify=notify,
            confirm=confirm,
        )

        return form_status

