from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="Authentication")



@_attrs_define
class Authentication:
    """ 
        Attributes:
            grant (str):
            token_endpoint (str):
            use (str):
            scopes (list[str]):
     """

    grant: str
    token_endpoint: str
    use: str
    scopes: list[str]





    def to_dict(self) -> dict[str, Any]:
        grant = self.grant

        token_endpoint = self.token_endpoint

        use = self.use

        scopes = self.scopes




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "grant": grant,
            "token_endpoint": token_endpoint,
            "use": use,
            "scopes": scopes,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        grant = d.pop("grant")

        token_endpoint = d.pop("token_endpoint")

        use = d.pop("use")

        scopes = cast(list[str], d.pop("scopes"))


        authentication = cls(
            grant=grant,
            token_endpoint=token_endpoint,
            use=use,
            scopes=scopes,
        )

        return authentication

