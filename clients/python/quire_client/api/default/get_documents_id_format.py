from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.get_documents_id_format_format import GetDocumentsIdFormatFormat
from ...models.model import Model
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: str,
    format_: GetDocumentsIdFormatFormat,
    *,
    page: int | Unset = UNSET,
    dpi: int | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["page"] = page

    params["dpi"] = dpi


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/documents/{id}.{format_}".format(id=quote(str(id), safe=""),format_=quote(str(format_), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | Model | None:
    if response.status_code == 200:
        response_200 = Model.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())



        return response_401

    if response.status_code == 402:
        response_402 = Error.from_dict(response.json())



        return response_402

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())



        return response_404

    if response.status_code == 408:
        response_408 = Error.from_dict(response.json())



        return response_408

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = Error.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())



        return response_503

    if response.status_code == 507:
        response_507 = Error.from_dict(response.json())



        return response_507

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | Model]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    format_: GetDocumentsIdFormatFormat,
    *,
    client: AuthenticatedClient,
    page: int | Unset = UNSET,
    dpi: int | Unset = UNSET,

) -> Response[Error | Model]:
    """ Download in any format an active exporter writes, or the model as json

    Args:
        id (str):
        format_ (GetDocumentsIdFormatFormat):
        page (int | Unset):
        dpi (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Model]
     """


    kwargs = _get_kwargs(
        id=id,
format_=format_,
page=page,
dpi=dpi,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    format_: GetDocumentsIdFormatFormat,
    *,
    client: AuthenticatedClient,
    page: int | Unset = UNSET,
    dpi: int | Unset = UNSET,

) -> Error | Model | None:
    """ Download in any format an active exporter writes, or the model as json

    Args:
        id (str):
        format_ (GetDocumentsIdFormatFormat):
        page (int | Unset):
        dpi (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Model
     """


    return sync_detailed(
        id=id,
format_=format_,
client=client,
page=page,
dpi=dpi,

    ).parsed

async def asyncio_detailed(
    id: str,
    format_: GetDocumentsIdFormatFormat,
    *,
    client: AuthenticatedClient,
    page: int | Unset = UNSET,
    dpi: int | Unset = UNSET,

) -> Response[Error | Model]:
    """ Download in any format an active exporter writes, or the model as json

    Args:
        id (str):
        format_ (GetDocumentsIdFormatFormat):
        page (int | Unset):
        dpi (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Model]
     """


    kwargs = _get_kwargs(
        id=id,
format_=format_,
page=page,
dpi=dpi,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    format_: GetDocumentsIdFormatFormat,
    *,
    client: AuthenticatedClient,
    page: int | Unset = UNSET,
    dpi: int | Unset = UNSET,

) -> Error | Model | None:
    """ Download in any format an active exporter writes, or the model as json

    Args:
        id (str):
        format_ (GetDocumentsIdFormatFormat):
        page (int | Unset):
        dpi (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Model
     """


    return (await asyncio_detailed(
        id=id,
format_=format_,
client=client,
page=page,
dpi=dpi,

    )).parsed
