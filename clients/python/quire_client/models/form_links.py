from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="FormLinks")



@_attrs_define
class FormLinks:
    """ A form's links: its document's, and the form's own.

        Attributes:
            self_ (str):
            pdf (str):
            svg (str):
            png (str):
            model (str):
            mermaid (str):
            open_ (str): The document's page in a browser.
            form (str):
            fields (str):
            responses (str):
            csv (str):
            fill (str): The public page where anyone with the link fills the form.
     """

    self_: str
    pdf: str
    svg: str
    png: str
    model: str
    mermaid: str
    open_: str
    form: str
    fields: str
    responses: str
    csv: str
    fill: str





    def to_dict(self) -> dict[str, Any]:
        self_ = self.self_

        pdf = self.pdf

        svg = self.svg

        png = self.png

        model = self.model

        mermaid = self.mermaid

        open_ = self.open_

        form = self.form

        fields = self.fields

        responses = self.responses

        csv = self.csv

        fill = self.fill


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "self": self_,
            "pdf": pdf,
            "svg": svg,
            "png": png,
            "model": model,
            "mermaid": mermaid,
            "open": open_,
            "form": form,
            "fields": fields,
            "responses": responses,
            "csv": csv,
            "fill": fill,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        self_ = d.pop("self")

        pdf = d.pop("pdf")

        svg = d.pop("svg")

        png = d.pop("png")

        model = d.pop("model")

        mermaid = d.pop("mermaid")

        open_ = d.pop("open")

        form = d.pop("form")

        fields = d.pop("fields")

        responses = d.pop("responses")

        csv = d.pop("csv")

        fill = d.pop("fill")

        form_links = cls(
            self_=self_,
            pdf=pdf,
            svg=svg,
            png=png,
            model=model,
            mermaid=mermaid,
            open_=open_,
            form=form,
            fields=fields,
            responses=responses,
            csv=csv,
            fill=fill,
        )

        return form_links

