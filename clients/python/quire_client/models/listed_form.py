from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.kind import Kind
from ..models.role import Role
from typing import cast

if TYPE_CHECKING:
  from ..models.form_links import FormLinks





T = TypeVar("T", bound="ListedForm")



@_attrs_define
class ListedForm:
    """ One form in a list.

        Attributes:
            id (str):
            title (str):
            kind (Kind):
            pages (int):
            fields (int): How many questions.
            open_ (bool):
            responses (int):
            your_role (Role): What the caller is to the document: API tokens act for the owner.
            links (FormLinks): A form's links: its document's, and the form's own.
     """

    id: str
    title: str
    kind: Kind
    pages: int
    fields: int
    open_: bool
    responses: int
    your_role: Role
    links: FormLinks





    def to_dict(self) -> dict[str, Any]:
        from ..models.form_links import FormLinks # noqa: PLC0415
        id = self.id

        title = self.title

        kind = self.kind.value

        pages = self.pages

        fields = self.fields

        open_ = self.open_

        responses = self.responses

        your_role = self.your_role.value

        links = self.links.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "title": title,
            "kind": kind,
            "pages": pages,
            "fields": fields,
            "open": open_,
            "responses": responses,
            "your_role": your_role,
            "links": links,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.form_links import FormLinks # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        title = d.pop("title")

        kind = Kind(d.pop("kind"))




        pages = d.pop("pages")

        fields = d.pop("fields")

        open_ = d.pop("open")

        responses = d.pop("responses")

        your_role = Role(d.pop("your_role"))




        links = FormLinks.from_dict(d.pop("links"))




        listed_form = cls(
            id=id,
            title=title,
            kind=kind,
            pages=pages,
            fields=fields,
            open_=open_,
            responses=responses,
            your_role=your_role,
            links=links,
        )

        return listed_form

