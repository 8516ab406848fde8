from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field
import json
from .. import types

from ..types import UNSET, Unset

from ..types import File, FileTypes
from ..types import UNSET, Unset
from io import BytesIO






T = TypeVar("T", bound="PostDiagramsFilesBody")



@_attrs_define
class PostDiagramsFilesBody:
    """ one file part: `file`, its media type from a `type` part, its Content-Type or its file name

        Attributes:
            file (File):
            title (str | Unset): The document's title (else the file's own, else the name it was sent under).
            type_ (str | Unset): The media type of `file` (e.g. "text/csv").
     """

    file: File
    title: str | Unset = UNSET
    type_: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        file = self.file.to_tuple()


        title = self.title

        type_ = self.type_


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "file": file,
        })
        if title is not UNSET:
            field_dict["title"] = title
        if type_ is not UNSET:
            field_dict["type"] = type_

        return field_dict


    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("file", self.file.to_tuple()))



        if not isinstance(self.title, Unset):
            files.append(("title", (None, str(self.title).encode(), "text/plain")))



        if not isinstance(self.type_, Unset):
            files.append(("type", (None, str(self.type_).encode(), "text/plain")))





        return files


    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        file = File(
             payload = BytesIO(d.pop("file"))
        )




        title = d.pop("title", UNSET)

        type_ = d.pop("type", UNSET)

        post_diagrams_files_body = cls(
            file=file,
            title=title,
            type_=type_,
        )

        return post_diagrams_files_body

