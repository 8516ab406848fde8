from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.share_mode import ShareMode
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="Invitation")



@_attrs_define
class Invitation:
    """ POST /forms/{id}/shares: the address to invite.

        Attributes:
            email (str):
            mode (None | ShareMode | Unset): How the form is shared; `fill` is the only way, so reading it is the whole
                check.
     """

    email: str
    mode: None | ShareMode | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        email = self.email

        mode: None | str | Unset
        if isinstance(self.mode, Unset):
            mode = UNSET
        elif isinstance(self.mode, ShareMode):
            mode = self.mode.value
        else:
            mode = self.mode


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "email": email,
        })
        if mode is not UNSET:
            field_dict["mode"] = mode

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        email = d.pop("email")

        def _parse_mode(data: object) -> None | ShareMode | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                mode_type_0 = ShareMode(data)



                return mode_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ShareMode | Unset, data)

        mode = _parse_mode(d.pop("mode", UNSET))


        invitation = cls(
            email=email,
            mode=mode,
        )

        return invitation

