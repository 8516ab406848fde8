from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.download_entry import DownloadEntry
  from ..models.format_entry import FormatEntry





T = TypeVar("T", bound="SurfaceFormats")



@_attrs_define
class SurfaceFormats:
    """ 
        Attributes:
            readable (list[FormatEntry]): What creates and replaces take.
            downloads (list[DownloadEntry]): What `GET /documents/{id}.{extension}` gives.
     """

    readable: list[FormatEntry]
    downloads: list[DownloadEntry]





    def to_dict(self) -> dict[str, Any]:
        from ..models.download_entry import DownloadEntry # noqa: PLC0415
        from ..models.format_entry import FormatEntry # noqa: PLC0415
        readable = []
        for readable_item_data in self.readable:
            readable_item = readable_item_data.to_dict()
            readable.append(readable_item)



        downloads = []
        for downloads_item_data in self.downloads:
            downloads_item = downloads_item_data.to_dict()
            downloads.append(downloads_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "readable": readable,
            "downloads": downloads,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.download_entry import DownloadEntry # noqa: PLC0415
        from ..models.format_entry import FormatEntry # noqa: PLC0415
        d = dict(src_dict)
        readable = []
        _readable = d.pop("readable")
        for readable_item_data in (_readable):
            readable_item = FormatEntry.from_dict(readable_item_data)



            readable.append(readable_item)


        downloads = []
        _downloads = d.pop("downloads")
        for downloads_item_data in (_downloads):
            downloads_item = DownloadEntry.from_dict(downloads_item_data)



            downloads.append(downloads_item)


        surface_formats = cls(
            readable=readable,
            downloads=downloads,
        )

        return surface_formats

