from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast






T = TypeVar("T", bound="DeliveryView")



@_attrs_define
class DeliveryView:
    """ One delivery of the log. Times are seconds since 1970.

        Attributes:
            id (str): Also the `webhook-id` header, the same on every attempt.
            event (str): An event type, or `webhook.test`.
            created (float):
            state (Literal['delivered'] | Literal['failed'] | Literal['pending']): Where one delivery stands.
            attempts (int):
            next_attempt (float | None | Unset): When it is tried again (pending only).
            done_at (float | None | Unset): When it was delivered or given up.
            last_status (int | None | Unset): The receiver's last status code; null when it was not reached.
            last_error (None | str | Unset): Why the last attempt failed.
     """

    id: str
    event: str
    created: float
    state: Literal['delivered'] | Literal['failed'] | Literal['pending']
    attempts: int
    next_attempt: float | None | Unset = UNSET
    done_at: float | None | Unset = UNSET
    last_status: int | None | Unset = UNSET
    last_error: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        event = self.event

        created = self.created

        state: Literal['delivered'] | Literal['failed'] | Literal['pending']
        state = self.state

        attempts = self.attempts

        next_attempt: float | None | Unset
        if isinstance(self.next_attempt, Unset):
            next_attempt = UNSET
        else:
            next_attempt = self.next_attempt

        done_at: float | None | Unset
        if isinstance(self.done_at, Unset):
            done_at = UNSET
        else:
            done_at = self.done_at

        last_status: int | None | Unset
        if isinstance(self.last_status, Unset):
            last_status = UNSET
        else:
            last_status = self.last_status

        last_error: None | str | Unset
        if isinstance(self.last_error, Unset):
            last_error = UNSET
        else:
            last_error = self.last_error


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "event": event,
            "created": created,
            "state": state,
            "attempts": attempts,
        })
        if next_attempt is not UNSET:
            field_dict["next_attempt"] = next_attempt
        if done_at is not UNSET:
            field_dict["done_at"] = done_at
        if last_status is not UNSET:
            field_dict["last_status"] = last_status
        if last_error is not UNSET:
            field_dict["last_error"] = last_error

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        event = d.pop("event")

        created = d.pop("created")

        def _parse_state(data: object) -> Literal['delivered'] | Literal['failed'] | Literal['pending']:
            componentsschemas_delivery_state_type_0 = cast(Literal['pending'] , data)
            if componentsschemas_delivery_state_type_0 != 'pending':
                raise ValueError(f"/components/schemas/DeliveryState_type_0 must match const 'pending', got '{componentsschemas_delivery_state_type_0}'")
            return componentsschemas_delivery_state_type_0
            componentsschemas_delivery_state_type_1 = cast(Literal['delivered'] , data)
            if componentsschemas_delivery_state_type_1 != 'delivered':
                raise ValueError(f"/components/schemas/DeliveryState_type_1 must match const 'delivered', got '{componentsschemas_delivery_state_type_1}'")
            return componentsschemas_delivery_state_type_1
            componentsschemas_delivery_state_type_2 = cast(Literal['failed'] , data)
            if componentsschemas_delivery_state_type_2 != 'failed':
                raise ValueError(f"/components/schemas/DeliveryState_type_2 must match const 'failed', got '{componentsschemas_delivery_state_type_2}'")
            return componentsschemas_delivery_state_type_2

        state = _parse_state(d.pop("state"))


        attempts = d.pop("attempts")

        def _parse_next_attempt(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        next_attempt = _parse_next_attempt(d.pop("next_attempt", UNSET))


        def _parse_done_at(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        done_at = _parse_done_at(d.pop("done_at", UNSET))


        def _parse_last_status(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        last_status = _parse_last_status(d.pop("last_status", UNSET))


        def _parse_last_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        last_error = _parse_last_error(d.pop("last_error", UNSET))


        delivery_view = cls(
            id=id,
            event=event,
            created=created,
            state=state,
            attempts=attempts,
            next_attempt=next_attempt,
            done_at=done_at,
            last_status=last_status,
            last_error=last_error,
        )

        return delivery_view

