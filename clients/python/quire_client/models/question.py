from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.field_type import FieldType
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="Question")



@_attrs_define
class Question:
    """ One question of a form.

        Attributes:
            key (str):
            type_ (FieldType): The ten field types; each is a type a PDF form dictionary can hold.
            label (str):
            required (bool):
            page (int):
            options (list[str] | Unset): The answers a radio, select or list offers.
     """

    key: str
    type_: FieldType
    label: str
    required: bool
    page: int
    options: list[str] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        key = self.key

        type_ = self.type_.value

        label = self.label

        required = self.required

        page = self.page

        options: list[str] | Unset = UNSET
        if not isinstance(self.options, Unset):
            options = self.options




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "key": key,
            "type": type_,
            "label": label,
            "required": required,
            "page": page,
        })
        if options is not UNSET:
            field_dict["options"] = options

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        key = d.pop("key")

        type_ = FieldType(d.pop("type"))




        label = d.pop("label")

        required = d.pop("required")

        page = d.pop("page")

        options = cast(list[str], d.pop("options", UNSET))


        question = cls(
            key=key,
            type_=type_,
            label=label,
            required=required,
            page=page,
            options=options,
        )

        return question

