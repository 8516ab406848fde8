from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.document import Document





T = TypeVar("T", bound="DocumentList")



@_attrs_define
class DocumentList:
    """ 
        Attributes:
            ok (Literal[True]):
            total (int): How many documents there are, beyond this page too.
            documents (list[Document]):
     """

    ok: Literal[True]
    total: int
    documents: list[Document]





    def to_dict(self) -> dict[str, Any]:
        from ..models.document import Document # noqa: PLC0415
        ok = self.ok

        total = self.total

        documents = []
        for documents_item_data in self.documents:
            documents_item = documents_item_data.to_dict()
            documents.append(documents_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "ok": ok,
            "total": total,
            "documents": documents,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.document import Document # noqa: PLC0415
        d = dict(src_dict)
        ok = cast(Literal[True] , d.pop("ok"))
        if ok != True:
            raise ValueError(f"ok must match const True, got '{ok}'")

        total = d.pop("total")

        documents = []
        _documents = d.pop("documents")
        for documents_item_data in (_documents):
            documents_item = Document.from_dict(documents_item_data)



            documents.append(documents_item)


        document_list = cls(
            ok=ok,
            total=total,
            documents=documents,
        )

        return document_list

