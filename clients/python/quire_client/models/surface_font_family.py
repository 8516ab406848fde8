from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="SurfaceFontFamily")



@_attrs_define
class SurfaceFontFamily:
    """ 
        Attributes:
            family (str):
            styles (list[str]): Among `Regular`, `Bold`, `Italic`, `Bold Italic`.
            scripts (list[str]): ISO 15924 codes of the scripts the family covers (90% of a sample of basic letters).
     """

    family: str
    styles: list[str]
    scripts: list[str]





    def to_dict(self) -> dict[str, Any]:
        family = self.family

        styles = self.styles



        scripts = self.scripts




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "family": family,
            "styles": styles,
            "scripts": scripts,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        family = d.pop("family")

        styles = cast(list[str], d.pop("styles"))


        scripts = cast(list[str], d.pop("scripts"))


        surface_font_family = cls(
            family=family,
            styles=styles,
            scripts=scripts,
        )

        return surface_font_family

