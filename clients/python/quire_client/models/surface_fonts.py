from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.surface_font_family import SurfaceFontFamily





T = TypeVar("T", bound="SurfaceFonts")



@_attrs_define
class SurfaceFonts:
    """ The fonts this host draws text with beyond the standard PDF fonts: what documents in
    other scripts will look like here. Files are not named; `quire fonts list` on the host
    shows them.

        Attributes:
            digest (str): sha256 (hex) over the file names, sizes and face indexes of the library: hosts with
                the same digest lay text out alike.
            families (list[SurfaceFontFamily]): By name.
            missing (list[str]): ISO 15924 codes of the scripts (with `Zsym` symbols and `Zmth` maths) no installed
                font draws: their characters come out as `?`.
     """

    digest: str
    families: list[SurfaceFontFamily]
    missing: list[str]





    def to_dict(self) -> dict[str, Any]:
        from ..models.surface_font_family import SurfaceFontFamily # noqa: PLC0415
        digest = self.digest

        families = []
        for families_item_data in self.families:
            families_item = families_item_data.to_dict()
            families.append(families_item)



        missing = self.missing




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "digest": digest,
            "families": families,
            "missing": missing,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.surface_font_family import SurfaceFontFamily # noqa: PLC0415
        d = dict(src_dict)
        digest = d.pop("digest")

        families = []
        _families = d.pop("families")
        for families_item_data in (_families):
            families_item = SurfaceFontFamily.from_dict(families_item_data)



            families.append(families_item)


        missing = cast(list[str], d.pop("missing"))


        surface_fonts = cls(
            digest=digest,
            families=families,
            missing=missing,
        )

        return surface_fonts

