from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast






T = TypeVar("T", bound="NewWebhook")



@_attrs_define
class NewWebhook:
    """ POST /webhooks: where to send, and which events.

        Attributes:
            url (str): `https://…`; plain `http://` only to an address the operator allows
                (`QUIRE_WEBHOOK_ALLOW`).
            events (list[Literal['document.binned'] | Literal['document.created'] | Literal['document.replaced'] |
                Literal['document.restored'] | Literal['form.closed'] | Literal['response.created']]):
     """

    url: str
    events: list[Literal['document.binned'] | Literal['document.created'] | Literal['document.replaced'] | Literal['document.restored'] | Literal['form.closed'] | Literal['response.created']]





    def to_dict(self) -> dict[str, Any]:
        url = self.url

        events = []
        for events_item_data in self.events:
            events_item: Literal['document.binned'] | Literal['document.created'] | Literal['document.replaced'] | Literal['document.restored'] | Literal['form.closed'] | Literal['response.created']
            events_item = events_item_data
            events.append(events_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "url": url,
            "events": events,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url")

        events = []
        _events = d.pop("events")
        for events_item_data in (_events):
            def _parse_events_item(data: object) -> Literal['document.binned'] | Literal['document.created'] | Literal['document.replaced'] | Literal['document.restored'] | Literal['form.closed'] | Literal['response.created']:
                componentsschemas_event_type_0 = cast(Literal['response.created'] , data)
                if componentsschemas_event_type_0 != 'response.created':
                    raise ValueError(f"/components/schemas/Event_type_0 must match const 'response.created', got '{componentsschemas_event_type_0}'")
                return componentsschemas_event_type_0
                componentsschemas_event_type_1 = cast(Literal['document.created'] , data)
                if componentsschemas_event_type_1 != 'document.created':
                    raise ValueError(f"/components/schemas/Event_type_1 must match const 'document.created', got '{componentsschemas_event_type_1}'")
                return componentsschemas_event_type_1
                componentsschemas_event_type_2 = cast(Literal['document.replaced'] , data)
                if componentsschemas_event_type_2 != 'document.replaced':
                    raise ValueError(f"/components/schemas/Event_type_2 must match const 'document.replaced', got '{componentsschemas_event_type_2}'")
                return componentsschemas_event_type_2
                componentsschemas_event_type_3 = cast(Literal['document.binned'] , data)
                if componentsschemas_event_type_3 != 'document.binned':
                    raise ValueError(f"/components/schemas/Event_type_3 must match const 'document.binned', got '{componentsschemas_event_type_3}'")
                return componentsschemas_event_type_3
                componentsschemas_event_type_4 = cast(Literal['document.restored'] , data)
                if componentsschemas_event_type_4 != 'document.restored':
                    raise ValueError(f"/components/schemas/Event_type_4 must match const 'document.restored', got '{componentsschemas_event_type_4}'")
                return componentsschemas_event_type_4
                componentsschemas_event_type_5 = cast(Literal['form.closed'] , data)
                if componentsschemas_event_type_5 != 'form.closed':
                    raise ValueError(f"/components/schemas/Event_type_5 must match const 'form.closed', got '{componentsschemas_event_type_5}'")
                return componentsschemas_event_type_5

            events_item = _parse_events_item(events_item_data)

            events.append(events_item)


        new_webhook = cls(
            url=url,
            events=events,
        )

        return new_webhook

