from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="FormSettings")



@_attrs_define
class FormSettings:
    """ PATCH /forms/{id}: the settings to change; members left out stay as they are.

        Attributes:
            open_ (bool | None | Unset): Whether the form takes answers.
            multiple (bool | None | Unset): Whether one address may answer more than once.
            notify (bool | None | Unset): Whether the owner gets an email on each answer.
            confirm (None | str | Unset): What a respondent reads after sending.
     """

    open_: bool | None | Unset = UNSET
    multiple: bool | None | Unset = UNSET
    notify: bool | None | Unset = UNSET
    confirm: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        open_: bool | None | Unset
        if isinstance(self.open_, Unset):
            open_ = UNSET
        else:
            open_ = self.open_

        multiple: bool | None | Unset
        if isinstance(self.multiple, Unset):
            multiple = UNSET
        else:
            multiple = self.multiple

        notify: bool | None | Unset
        if isinstance(self.notify, Unset):
            notify = UNSET
        else:
            notify = self.notify

        confirm: None | str | Unset
        if isinstance(self.confirm, Unset):
            confirm = UNSET
        else:
            confirm = self.confirm


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if open_ is not UNSET:
            field_dict["open"] = open_
        if multiple is not UNSET:
            field_dict["multiple"] = multiple
        if notify is not UNSET:
            field_dict["notify"] = notify
        if confirm is not UNSET:
            field_dict["confirm"] = confirm

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_open_(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        open_ = _parse_open_(d.pop("open", UNSET))


        def _parse_multiple(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        multiple = _parse_multiple(d.pop("multiple", UNSET))


        def _parse_notify(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        notify = _parse_notify(d.pop("notify", UNSET))


        def _parse_confirm(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        confirm = _parse_confirm(d.pop("confirm", UNSET))


        form_settings = cls(
            open_=open_,
            multiple=multiple,
            notify=notify,
            confirm=confirm,
        )

        return form_settings

