from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field
import json
from .. import types

from ..types import UNSET, Unset

from ..models.put_forms_id_files_body_detect import PutFormsIdFilesBodyDetect
from ..models.put_forms_id_files_body_mode import PutFormsIdFilesBodyMode
from ..models.put_forms_id_files_body_unlock import PutFormsIdFilesBodyUnlock
from ..types import File, FileTypes
from ..types import UNSET, Unset
from io import BytesIO
from typing import cast

if TYPE_CHECKING:
  from ..models.placed_field import PlacedField





T = TypeVar("T", bound="PutFormsIdFilesBody")



@_attrs_define
class PutFormsIdFilesBody:
    """ one file part: `file`, its media type from a `type` part, its Content-Type or its file name

        Attributes:
            file (File):
            title (str | Unset): The document's title (else the file's own, else the name it was sent under).
            type_ (str | Unset): The media type of `file` (e.g. "text/csv").
            mode (PutFormsIdFilesBodyMode | Unset): How a PDF source is imported: `image` keeps each page as a picture,
                `editable` (the
                default) makes its text and drawings editable.
            unlock (PutFormsIdFilesBodyUnlock | Unset): What to do with a locked PDF: `1`/`true` removes the lock where it
                can, `decrypt`
                insists on keeping the document intact, `rebuild` redraws it; `0`/`false` leaves it.
            password (str | Unset): The password of a PDF that needs one.
            images (list[File] | Unset):
            fields (list[PlacedField] | None | Unset): A form's boxes to place.
            detect (PutFormsIdFilesBodyDetect | Unset):
     """

    file: File
    title: str | Unset = UNSET
    type_: str | Unset = UNSET
    mode: PutFormsIdFilesBodyMode | Unset = UNSET
    unlock: PutFormsIdFilesBodyUnlock | Unset = UNSET
    password: str | Unset = UNSET
    images: list[File] | Unset = UNSET
    fields: list[PlacedField] | None | Unset = UNSET
    detect: PutFormsIdFilesBodyDetect | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.placed_field import PlacedField # noqa: PLC0415
        file = self.file.to_tuple()


        title = self.title

        type_ = self.type_

        mode: str | Unset = UNSET
        if not isinstance(self.mode, Unset):
            mode = self.mode.value


        unlock: str | Unset = UNSET
        if not isinstance(self.unlock, Unset):
            unlock = self.unlock.value


        password = self.password

        images: list[FileTypes] | Unset = UNSET
        if not isinstance(self.images, Unset):
            images = []
            for images_item_data in self.images:
                images_item = images_item_data.to_tuple()

                images.append(images_item)



        fields: list[dict[str, Any]] | None | Unset
        if isinstance(self.fields, Unset):
            fields = UNSET
        elif isinstance(self.fields, list):
            fields = []
            for fields_type_0_item_data in self.fields:
                fields_type_0_item = fields_type_0_item_data.to_dict()
                fields.append(fields_type_0_item)


        else:
            fields = self.fields

        detect: str | Unset = UNSET
        if not isinstance(self.detect, Unset):
            detect = self.detect.value



        field_dict: dict[str, Any] = {}

        field_dict.update({
            "file": file,
        })
        if title is not UNSET:
            field_dict["title"] = title
        if type_ is not UNSET:
            field_dict["type"] = type_
        if mode is not UNSET:
            field_dict["mode"] = mode
        if unlock is not UNSET:
            field_dict["unlock"] = unlock
        if password is not UNSET:
            field_dict["password"] = password
        if images is not UNSET:
            field_dict["images"] = images
        if fields is not UNSET:
            field_dict["fields"] = fields
        if detect is not UNSET:
            field_dict["detect"] = detect

        return field_dict


    def to_multipart(self) -> types.RequestFiles:
        from ..models.placed_field import PlacedField # noqa: PLC0415
        files: types.RequestFiles = []

        files.append(("file", self.file.to_tuple()))



        if not isinstance(self.title, Unset):
            files.append(("title", (None, str(self.title).encode(), "text/plain")))



        if not isinstance(self.type_, Unset):
            files.append(("type", (None, str(self.type_).encode(), "text/plain")))



        if not isinstance(self.mode, Unset):
            files.append(("mode",  (None, str(self.mode.value).encode(), "text/plain")))



        if not isinstance(self.unlock, Unset):
            files.append(("unlock",  (None, str(self.unlock.value).encode(), "text/plain")))



        if not isinstance(self.password, Unset):
            files.append(("password", (None, str(self.password).encode(), "text/plain")))



        if not isinstance(self.images, Unset):
            for images_item_element in self.images:
                files.append(("images", images_item_element.to_tuple()))




        if not isinstance(self.fields, Unset):
            if isinstance(self.fields, list):

                for fields_type_0_item_element in self.fields:
                    files.append(("fields", (None, json.dumps( fields_type_0_item_element.to_dict()).encode(), "application/json")))
            else:
                files.append(("fields", (None, str(self.fields).encode(), "text/plain")))


        if not isinstance(self.detect, Unset):
            files.append(("detect",  (None, str(self.detect.value).encode(), "text/plain")))





        return files


    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.placed_field import PlacedField # noqa: PLC0415
        d = dict(src_dict)
        file = File(
             payload = BytesIO(d.pop("file"))
        )




        title = d.pop("title", UNSET)

        type_ = d.pop("type", UNSET)

        _mode = d.pop("mode", UNSET)
        mode: PutFormsIdFilesBodyMode | Unset
        if isinstance(_mode,  Unset):
            mode = UNSET
        else:
            mode = PutFormsIdFilesBodyMode(_mode)




        _unlock = d.pop("unlock", UNSET)
        unlock: PutFormsIdFilesBodyUnlock | Unset
        if isinstance(_unlock,  Unset):
            unlock = UNSET
        else:
            unlock = PutFormsIdFilesBodyUnlock(_unlock)




        password = d.pop("password", UNSET)

        _images = d.pop("images", UNSET)
        images: list[File] | Unset = UNSET
        if _images is not UNSET:
            images = []
            for images_item_data in _images:
                images_item = File(
                     payload = BytesIO(images_item_data)
                )



                images.append(images_item)


        def _parse_fields(data: object) -> list[PlacedField] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                fields_type_0 = []
                _fields_type_0 = data
                for fields_type_0_item_data in (_fields_type_0):
                    fields_type_0_item = PlacedField.from_dict(fields_type_0_item_data)



                    fields_type_0.append(fields_type_0_item)

                return fields_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[PlacedField] | None | Unset, data)

        fields = _parse_fields(d.pop("fields", UNSET))


        _detect = d.pop("detect", UNSET)
        detect: PutFormsIdFilesBodyDetect | Unset
        if isinstance(_detect,  Unset):
            detect = UNSET
        else:
            detect = PutFormsIdFilesBodyDetect(_detect)




        put_forms_id_files_body = cls(
            file=file,
            title=title,
            type_=type_,
            mode=mode,
            unlock=unlock,
            password=password,
            images=images,
            fields=fields,
            detect=detect,
        )

        return put_forms_id_files_body

