from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.field_type import FieldType
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="PlacedField")



@_attrs_define
class PlacedField:
    """ One box on a page: a question, where it sits (points from the top left of the page),
    and the answers a choosing type offers. Boxes sharing a key are one question.

        Attributes:
            key (str):
            x (float):
            y (float):
            w (float):
            h (float):
            type_ (FieldType | None | Unset): `text` when left out.
            label (None | str | Unset):
            required (bool | None | Unset):
            page (int | None | Unset): 1 when left out; at most the document's page count.
            options (list[str] | None | Unset): The answers a radio, select or list field offers (required for those,
                refused for
                the others).
     """

    key: str
    x: float
    y: float
    w: float
    h: float
    type_: FieldType | None | Unset = UNSET
    label: None | str | Unset = UNSET
    required: bool | None | Unset = UNSET
    page: int | None | Unset = UNSET
    options: list[str] | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        key = self.key

        x = self.x

        y = self.y

        w = self.w

        h = self.h

        type_: None | str | Unset
        if isinstance(self.type_, Unset):
            type_ = UNSET
        elif isinstance(self.type_, FieldType):
            type_ = self.type_.value
        else:
            type_ = self.type_

        label: None | str | Unset
        if isinstance(self.label, Unset):
            label = UNSET
        else:
            label = self.label

        required: bool | None | Unset
        if isinstance(self.required, Unset):
            required = UNSET
        else:
            required = self.required

        page: int | None | Unset
        if isinstance(self.page, Unset):
            page = UNSET
        else:
            page = self.page

        options: list[str] | None | Unset
        if isinstance(self.options, Unset):
            options = UNSET
        elif isinstance(self.options, list):
            options = self.options


        else:
            options = self.options


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "key": key,
            "x": x,
            "y": y,
            "w": w,
            "h": h,
        })
        if type_ is not UNSET:
            field_dict["type"] = type_
        if label is not UNSET:
            field_dict["label"] = label
        if required is not UNSET:
            field_dict["required"] = required
        if page is not UNSET:
            field_dict["page"] = page
        if options is not UNSET:
            field_dict["options"] = options

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        key = d.pop("key")

        x = d.pop("x")

        y = d.pop("y")

        w = d.pop("w")

        h = d.pop("h")

        def _parse_type_(data: object) -> FieldType | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                type_type_0 = FieldType(data)



                return type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FieldType | None | Unset, data)

        type_ = _parse_type_(d.pop("type", UNSET))


        def _parse_label(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        label = _parse_label(d.pop("label", UNSET))


        def _parse_required(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        required = _parse_required(d.pop("required", UNSET))


        def _parse_page(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        page = _parse_page(d.pop("page", UNSET))


        def _parse_options(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                options_type_0 = cast(list[str], data)

                return options_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        options = _parse_options(d.pop("options", UNSET))


        placed_field = cls(
            key=key,
            x=x,
            y=y,
            w=w,
            h=h,
            type_=type_,
            label=label,
            required=required,
            page=page,
            options=options,
        )

        return placed_field

