from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="Links")



@_attrs_define
class Links:
    """ Where a document can be read, downloaded and opened.

        Attributes:
            self_ (str):
            pdf (str):
            svg (str):
            png (str):
            model (str):
            mermaid (str):
            open_ (str): The document's page in a browser.
     """

    self_: str
    pdf: str
    svg: str
    png: str
    model: str
    mermaid: str
    open_: str





    def to_dict(self) -> dict[str, Any]:
        self_ = self.self_

        pdf = self.pdf

        svg = self.svg

        png = self.png

        model = self.model

        mermaid = self.mermaid

        open_ = self.open_


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "self": self_,
            "pdf": pdf,
            "svg": svg,
            "png": png,
            "model": model,
            "mermaid": mermaid,
            "open": open_,
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

        links = cls(
            self_=self_,
            pdf=pdf,
            svg=svg,
            png=png,
            model=model,
            mermaid=mermaid,
            open_=open_,
        )

        return links

