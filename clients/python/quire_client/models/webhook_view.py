from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast






T = TypeVar("T", bound="WebhookView")



@_attrs_define
class WebhookView:
    """ An endpoint. `secret` (`whsec_…`, for checking the `webhook-signature` header) is in the
    answer that makes it (a registration or a rotation) and in no other.

        Attributes:
            id (str):
            url (str):
            events (list[Literal['document.binned'] | Literal['document.created'] | Literal['document.replaced'] |
                Literal['document.restored'] | Literal['form.closed'] | Literal['response.created']]):
            created (float): When it was registered, in seconds since 1970.
            secret (None | str | Unset):
     """

    id: str
    url: str
    events: list[Literal['document.binned'] | Literal['document.created'] | Literal['document.replaced'] | Literal['document.restored'] | Literal['form.closed'] | Literal['response.created']]
    created: float
    secret: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        url = self.url

        events = []
        for events_item_data in self.events:
            events_item: Literal['document.binned'] | Literal['document.created'] | Literal['document.replaced'] | Literal['document.restored'] | Literal['form.closed'] | Literal['response.created']
            events_item = events_item_data
            events.append(events_item)



        created = self.created

        secret: None | str | Unset
        if isinstance(self.secret, Unset):
            secret = UNSET
        else:
            secret = self.secret


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "url": url,
            "events": events,
            "created": created,
        })
        if secret is not UNSET:
            field_dict["secret"] = secret

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

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


        created = d.pop("created")

        def _parse_secret(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        secret = _parse_secret(d.pop("secret", UNSET))


        webhook_view = cls(
            id=id,
            url=url,
            events=events,
            created=created,
            secret=secret,
        )

        return webhook_view

