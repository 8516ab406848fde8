from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.document_answer import DocumentAnswer
from ...models.error import Error
from ...models.put_diagrams_id_files_body import PutDiagramsIdFilesBody
from ...models.put_diagrams_id_json_body_type_0 import PutDiagramsIdJsonBodyType0
from ...models.put_diagrams_id_json_body_type_1 import PutDiagramsIdJsonBodyType1
from ...models.put_diagrams_id_json_body_type_2 import PutDiagramsIdJsonBodyType2
from ...models.put_diagrams_id_json_body_type_3 import PutDiagramsIdJsonBodyType3
from ...models.put_diagrams_id_json_body_type_4 import PutDiagramsIdJsonBodyType4
from ...models.put_diagrams_id_json_body_type_5 import PutDiagramsIdJsonBodyType5
from ...models.put_diagrams_id_mode import PutDiagramsIdMode
from ...models.put_diagrams_id_unlock import PutDiagramsIdUnlock
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: str,
    *,
    body:    PutDiagramsIdJsonBodyType0 | PutDiagramsIdJsonBodyType1 | PutDiagramsIdJsonBodyType2 | PutDiagramsIdJsonBodyType3 | PutDiagramsIdJsonBodyType4 | PutDiagramsIdJsonBodyType5  |     PutDiagramsIdFilesBody  | Unset = UNSET,
    title: str | Unset = UNSET,
    mode: PutDiagramsIdMode | Unset = UNSET,
    unlock: PutDiagramsIdUnlock | Unset = UNSET,
    x_doc_password: str | Unset = UNSET,
    if_match: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_doc_password, Unset):
        headers["X-Doc-Password"] = x_doc_password

    if not isinstance(if_match, Unset):
        headers["If-Match"] = if_match



    

    params: dict[str, Any] = {}

    params["title"] = title

    json_mode: str | Unset = UNSET
    if not isinstance(mode, Unset):
        json_mode = mode.value

    params["mode"] = json_mode

    json_unlock: str | Unset = UNSET
    if not isinstance(unlock, Unset):
        json_unlock = unlock.value

    params["unlock"] = json_unlock


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/api/v1/diagrams/{id}".format(id=quote(str(id), safe=""),),
        "params": params,
    }

    if isinstance(body, PutDiagramsIdJsonBodyType0 | PutDiagramsIdJsonBodyType1 | PutDiagramsIdJsonBodyType2 | PutDiagramsIdJsonBodyType3 | PutDiagramsIdJsonBodyType4 | PutDiagramsIdJsonBodyType5):
        
        if isinstance(body, PutDiagramsIdJsonBodyType0):
            _kwargs["json"] = body.to_dict()
        elif isinstance(body, PutDiagramsIdJsonBodyType1):
            _kwargs["json"] = body.to_dict()
        elif isinstance(body, PutDiagramsIdJsonBodyType2):
            _kwargs["json"] = body.to_dict()
        elif isinstance(body, PutDiagramsIdJsonBodyType3):
            _kwargs["json"] = body.to_dict()
        elif isinstance(body, PutDiagramsIdJsonBodyType4):
            _kwargs["json"] = body.to_dict()
        else:
            _kwargs["json"] = body.to_dict()


        headers["Content-Type"] = "application/json"
    if isinstance(body, PutDiagramsIdFilesBody):
        _kwargs["files"] = body.to_multipart()

        headers["Content-Type"] = "multipart/form-data; boundary=+++"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> DocumentAnswer | Error | None:
    if response.status_code == 200:
        response_200 = DocumentAnswer.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[DocumentAnswer | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body:    PutDiagramsIdJsonBodyType0 | PutDiagramsIdJsonBodyType1 | PutDiagramsIdJsonBodyType2 | PutDiagramsIdJsonBodyType3 | PutDiagramsIdJsonBodyType4 | PutDiagramsIdJsonBodyType5  |     PutDiagramsIdFilesBody  | Unset = UNSET,
    title: str | Unset = UNSET,
    mode: PutDiagramsIdMode | Unset = UNSET,
    unlock: PutDiagramsIdUnlock | Unset = UNSET,
    x_doc_password: str | Unset = UNSET,
    if_match: str | Unset = UNSET,

) -> Response[DocumentAnswer | Error]:
    """ Replace a diagram (version raised, history kept)

    Args:
        id (str):
        title (str | Unset):
        mode (PutDiagramsIdMode | Unset):
        unlock (PutDiagramsIdUnlock | Unset):
        x_doc_password (str | Unset):
        if_match (str | Unset):
        body (PutDiagramsIdJsonBodyType0 | PutDiagramsIdJsonBodyType1 | PutDiagramsIdJsonBodyType2
            | PutDiagramsIdJsonBodyType3 | PutDiagramsIdJsonBodyType4 | PutDiagramsIdJsonBodyType5): A
            create's or replace's JSON body: exactly one source member, plus what goes with it.
            Every member any such endpoint reads is here; an endpoint reads those of its kind
            ([`Endpoint::members`]) and refuses the others. `null` stands for absent.
        body (PutDiagramsIdFilesBody): one file part: `file`, its media type from a `type` part,
            its Content-Type or its file name

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DocumentAnswer | Error]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,
title=title,
mode=mode,
unlock=unlock,
x_doc_password=x_doc_password,
if_match=if_match,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    body:    PutDiagramsIdJsonBodyType0 | PutDiagramsIdJsonBodyType1 | PutDiagramsIdJsonBodyType2 | PutDiagramsIdJsonBodyType3 | PutDiagramsIdJsonBodyType4 | PutDiagramsIdJsonBodyType5  |     PutDiagramsIdFilesBody  | Unset = UNSET,
    title: str | Unset = UNSET,
    mode: PutDiagramsIdMode | Unset = UNSET,
    unlock: PutDiagramsIdUnlock | Unset = UNSET,
    x_doc_password: str | Unset = UNSET,
    if_match: str | Unset = UNSET,

) -> DocumentAnswer | Error | None:
    """ Replace a diagram (version raised, history kept)

    Args:
        id (str):
        title (str | Unset):
        mode (PutDiagramsIdMode | Unset):
        unlock (PutDiagramsIdUnlock | Unset):
        x_doc_password (str | Unset):
        if_match (str | Unset):
        body (PutDiagramsIdJsonBodyType0 | PutDiagramsIdJsonBodyType1 | PutDiagramsIdJsonBodyType2
            | PutDiagramsIdJsonBodyType3 | PutDiagramsIdJsonBodyType4 | PutDiagramsIdJsonBodyType5): A
            create's or replace's JSON body: exactly one source member, plus what goes with it.
            Every member any such endpoint reads is here; an endpoint reads those of its kind
            ([`Endpoint::members`]) and refuses the others. `null` stands for absent.
        body (PutDiagramsIdFilesBody): one file part: `file`, its media type from a `type` part,
            its Content-Type or its file name

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DocumentAnswer | Error
     """


    return sync_detailed(
        id=id,
client=client,
body=body,
title=title,
mode=mode,
unlock=unlock,
x_doc_password=x_doc_password,
if_match=if_match,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body:    PutDiagramsIdJsonBodyType0 | PutDiagramsIdJsonBodyType1 | PutDiagramsIdJsonBodyType2 | PutDiagramsIdJsonBodyType3 | PutDiagramsIdJsonBodyType4 | PutDiagramsIdJsonBodyType5  |     PutDiagramsIdFilesBody  | Unset = UNSET,
    title: str | Unset = UNSET,
    mode: PutDiagramsIdMode | Unset = UNSET,
    unlock: PutDiagramsIdUnlock | Unset = UNSET,
    x_doc_password: str | Unset = UNSET,
    if_match: str | Unset = UNSET,

) -> Response[DocumentAnswer | Error]:
    """ Replace a diagram (version raised, history kept)

    Args:
        id (str):
        title (str | Unset):
        mode (PutDiagramsIdMode | Unset):
        unlock (PutDiagramsIdUnlock | Unset):
        x_doc_password (str | Unset):
        if_match (str | Unset):
        body (PutDiagramsIdJsonBodyType0 | PutDiagramsIdJsonBodyType1 | PutDiagramsIdJsonBodyType2
            | PutDiagramsIdJsonBodyType3 | PutDiagramsIdJsonBodyType4 | PutDiagramsIdJsonBodyType5): A
            create's or replace's JSON body: exactly one source member, plus what goes with it.
            Every member any such endpoint reads is here; an endpoint reads those of its kind
            ([`Endpoint::members`]) and refuses the others. `null` stands for absent.
        body (PutDiagramsIdFilesBody): one file part: `file`, its media type from a `type` part,
            its Content-Type or its file name

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DocumentAnswer | Error]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,
title=title,
mode=mode,
unlock=unlock,
x_doc_password=x_doc_password,
if_match=if_match,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    body:    PutDiagramsIdJsonBodyType0 | PutDiagramsIdJsonBodyType1 | PutDiagramsIdJsonBodyType2 | PutDiagramsIdJsonBodyType3 | PutDiagramsIdJsonBodyType4 | PutDiagramsIdJsonBodyType5  |     PutDiagramsIdFilesBody  | Unset = UNSET,
    title: str | Unset = UNSET,
    mode: PutDiagramsIdMode | Unset = UNSET,
    unlock: PutDiagramsIdUnlock | Unset = UNSET,
    x_doc_password: str | Unset = UNSET,
    if_match: str | Unset = UNSET,

) -> DocumentAnswer | Error | None:
    """ Replace a diagram (version raised, history kept)

    Args:
        id (str):
        title (str | Unset):
        mode (PutDiagramsIdMode | Unset):
        unlock (PutDiagramsIdUnlock | Unset):
        x_doc_password (str | Unset):
        if_match (str | Unset):
        body (PutDiagramsIdJsonBodyType0 | PutDiagramsIdJsonBodyType1 | PutDiagramsIdJsonBodyType2
            | PutDiagramsIdJsonBodyType3 | PutDiagramsIdJsonBodyType4 | PutDiagramsIdJsonBodyType5): A
            create's or replace's JSON body: exactly one source member, plus what goes with it.
            Every member any such endpoint reads is here; an endpoint reads those of its kind
            ([`Endpoint::members`]) and refuses the others. `null` stands for absent.
        body (PutDiagramsIdFilesBody): one file part: `file`, its media type from a `type` part,
            its Content-Type or its file name

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DocumentAnswer | Error
     """


    return (await asyncio_detailed(
        id=id,
client=client,
body=body,
title=title,
mode=mode,
unlock=unlock,
x_doc_password=x_doc_password,
if_match=if_match,

    )).parsed
