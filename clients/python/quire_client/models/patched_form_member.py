from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.kind import Kind
from ..models.role import Role
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.form_links import FormLinks
  from ..models.form_status import FormStatus
  from ..models.model import Model
  from ..models.question import Question





T = TypeVar("T", bound="PatchedFormMember")



@_attrs_define
class PatchedFormMember:
    """ A whole form: its document's row, its state and its links.

        Attributes:
            id (str):
            title (str):
            kind (Kind):
            pages (int):
            shapes (int):
            version (int):
            created (float): Unix seconds.
            updated (float): Unix seconds.
            your_role (Role): What the caller is to the document: API tokens act for the owner.
            links (FormLinks): A form's links: its document's, and the form's own.
            form (FormStatus): A form's state: how many questions and responses, open or closed.
            count (int): How many questions.
            open_ (bool):
            responses (int):
            data (Model | None | Unset): The model, with `include=model`.
            fields (list[Question] | None | Unset):
            multiple (bool | Unset):
            notify (bool | Unset):
            confirm (str | Unset):
     """

    id: str
    title: str
    kind: Kind
    pages: int
    shapes: int
    version: int
    created: float
    updated: float
    your_role: Role
    links: FormLinks
    form: FormStatus
    count: int
    open_: bool
    responses: int
    data: Model | None | Unset = UNSET
    fields: list[Question] | None | Unset = UNSET
    multiple: bool | Unset = UNSET
    notify: bool | Unset = UNSET
    confirm: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.form_links import FormLinks # noqa: PLC0415
        from ..models.form_status import FormStatus # noqa: PLC0415
        from ..models.model import Model # noqa: PLC0415
        from ..models.question import Question # noqa: PLC0415
        id = self.id

        title = self.title

        kind = self.kind.value

        pages = self.pages

        shapes = self.shapes

        version = self.version

        created = self.created

        updated = self.updated

        your_role = self.your_role.value

        links = self.links.to_dict()

        form = self.form.to_dict()

        count = self.count

        open_ = self.open_

        responses = self.responses

        data: dict[str, Any] | None | Unset
        if isinstance(self.data, Unset):
            data = UNSET
        elif isinstance(self.data, Model):
            data = self.data.to_dict()
        else:
            data = self.data

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

        multiple = self.multiple

        notify = self.notify

        confirm = self.confirm


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "title": title,
            "kind": kind,
            "pages": pages,
            "shapes": shapes,
            "version": version,
            "created": created,
            "updated": updated,
            "your_role": your_role,
            "links": links,
            "form": form,
            "count": count,
            "open": open_,
            "responses": responses,
        })
        if data is not UNSET:
            field_dict["data"] = data
        if fields is not UNSET:
            field_dict["fields"] = fields
        if multiple is not UNSET:
            field_dict["multiple"] = multiple
        if notify is not UNSET:
            field_dict["notify"] = notify
        if confirm is not UNSET:
            field_dict["confirm"] = confirm

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.form_links import FormLinks # noqa: PLC0415
        from ..models.form_status import FormStatus # noqa: PLC0415
        from ..models.model import Model # noqa: PLC0415
        from ..models.question import Question # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        title = d.pop("title")

        kind = Kind(d.pop("kind"))




        pages = d.pop("pages")

        shapes = d.pop("shapes")

        version = d.pop("version")

        created = d.pop("created")

        updated = d.pop("updated")

        your_role = Role(d.pop("your_role"))




        links = FormLinks.from_dict(d.pop("links"))




        form = FormStatus.from_dict(d.pop("form"))




        count = d.pop("count")

        open_ = d.pop("open")

        responses = d.pop("responses")

        def _parse_data(data: object) -> Model | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                data_type_0 = Model.from_dict(data)



                return data_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Model | None | Unset, data)

        data = _parse_data(d.pop("data", UNSET))


        def _parse_fields(data: object) -> list[Question] | None | Unset:
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
                    fields_type_0_item = Question.from_dict(fields_type_0_item_data)



                    fields_type_0.append(fields_type_0_item)

                return fields_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[Question] | None | Unset, data)

        fields = _parse_fields(d.pop("fields", UNSET))


        multiple = d.pop("multiple", UNSET)

        notify = d.pop("notify", UNSET)

        confirm = d.pop("confirm", UNSET)

        patched_form_member = cls(
            id=id,
            title=title,
            kind=kind,
            pages=pages,
            shapes=shapes,
            version=version,
            created=created,
            updated=updated,
            your_role=your_role,
            links=links,
            form=form,
            count=count,
            open_=open_,
            responses=responses,
            data=data,
            fields=fields,
            multiple=multiple,
            notify=notify,
            confirm=confirm,
        )

        return patched_form_member

