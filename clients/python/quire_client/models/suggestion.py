from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.field_type import FieldType






T = TypeVar("T", bound="Suggestion")



@_attrs_define
class Suggestion:
    """ A box found on a page. It is a guess: no question text (`label` is empty) and no
    `required` until a person says so.

        Attributes:
            key (str):
            type_ (FieldType): The ten field types; each is a type a PDF form dictionary can hold.
            label (str):
            page (int):
            x (float):
            y (float):
            w (float):
            h (float):
     """

    key: str
    type_: FieldType
    label: str
    page: int
    x: float
    y: float
    w: float
    h: float





    def to_dict(self) -> dict[str, Any]:
        key = self.key

        type_ = self.type_.value

        label = self.label

        page = self.page

        x = self.x

        y = self.y

        w = self.w

        h = self.h


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "key": key,
            "type": type_,
            "label": label,
            "page": page,
            "x": x,
            "y": y,
            "w": w,
            "h": h,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        key = d.pop("key")

        type_ = FieldType(d.pop("type"))




        label = d.pop("label")

        page = d.pop("page")

        x = d.pop("x")

        y = d.pop("y")

        w = d.pop("w")

        h = d.pop("h")

        suggestion = cls(
            key=key,
            type_=type_,
            label=label,
            page=page,
            x=x,
            y=y,
            w=w,
            h=h,
        )

        return suggestion

