from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.authentication import Authentication
  from ..models.surface_fonts import SurfaceFonts
  from ..models.surface_formats import SurfaceFormats





T = TypeVar("T", bound="Surface")



@_attrs_define
class Surface:
    """ GET /api/v1: what the API offers right now.

        Attributes:
            ok (Literal[True]):
            version (int):
            docs (str): The OpenAPI document.
            authentication (Authentication):
            read (list[str]): `METHOD /path` of every read.
            write (list[str]): `METHOD /path` of every write.
            formats (SurfaceFormats):
            fonts (SurfaceFonts): The fonts this host draws text with beyond the standard PDF fonts: what documents in
                other scripts will look like here. Files are not named; `quire fonts list` on the host
                shows them.
     """

    ok: Literal[True]
    version: int
    docs: str
    authentication: Authentication
    read: list[str]
    write: list[str]
    formats: SurfaceFormats
    fonts: SurfaceFonts





    def to_dict(self) -> dict[str, Any]:
        from ..models.authentication import Authentication # noqa: PLC0415
        from ..models.surface_fonts import SurfaceFonts # noqa: PLC0415
        from ..models.surface_formats import SurfaceFormats # noqa: PLC0415
        ok = self.ok

        version = self.version

        docs = self.docs

        authentication = self.authentication.to_dict()

        read = self.read



        write = self.write



        formats = self.formats.to_dict()

        fonts = self.fonts.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "ok": ok,
            "version": version,
            "docs": docs,
            "authentication": authentication,
            "read": read,
            "write": write,
            "formats": formats,
            "fonts": fonts,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.authentication import Authentication # noqa: PLC0415
        from ..models.surface_fonts import SurfaceFonts # noqa: PLC0415
        from ..models.surface_formats import SurfaceFormats # noqa: PLC0415
        d = dict(src_dict)
        ok = cast(Literal[True] , d.pop("ok"))
        if ok != True:
            raise ValueError(f"ok must match const True, got '{ok}'")

        version = d.pop("version")

        docs = d.pop("docs")

        authentication = Authentication.from_dict(d.pop("authentication"))




        read = cast(list[str], d.pop("read"))


        write = cast(list[str], d.pop("write"))


        formats = SurfaceFormats.from_dict(d.pop("formats"))




        fonts = SurfaceFonts.from_dict(d.pop("fonts"))




        surface = cls(
            ok=ok,
            version=version,
            docs=docs,
            authentication=authentication,
            read=read,
            write=write,
            formats=formats,
            fonts=fonts,
        )

        return surface

