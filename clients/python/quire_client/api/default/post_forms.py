from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error import Error
from ...models.form_answer import FormAnswer
from ...models.post_forms_detect import PostFormsDetect
from ...models.post_forms_files_body import PostFormsFilesBody
from ...models.post_forms_json_body_type_0 import PostFormsJsonBodyType0
from ...models.post_forms_json_body_type_1 import PostFormsJsonBodyType1
from ...models.post_forms_json_body_type_2 import PostFormsJsonBodyType2
from ...models.post_forms_json_body_type_3 import PostFormsJsonBodyType3
from ...models.post_forms_json_body_type_4 import PostFormsJsonBodyType4
from ...models.post_forms_json_body_type_5 import PostFormsJsonBodyType5
from ...models.post_forms_mode import PostFormsMode
from ...models.post_forms_unlock import PostFormsUnlock
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body:    PostFormsJsonBodyType0 | PostFormsJsonBodyType1 | PostFormsJsonBodyType2 | PostFormsJsonBodyType3 | PostFormsJsonBodyType4 | PostFormsJsonBodyType5  |     PostFormsFilesBody  | Unset = UNSET,
    title: str | Unset = UNSET,
    mode: PostFormsMode | Unset = UNSET,
    unlock: PostFormsUnlock | Unset = UNSET,
    detect: PostFormsDetect | Unset = UNSET,
    x_doc_password: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_doc_password, Unset):
        headers["X-Doc-Password"] = x_doc_password



    

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

    json_detect: str | Unset = UNSET
    if not isinstance(detect, Unset):
        json_detect = detect.value

    params["detect"] = json_detect


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/forms",
        "params": params,
    }

    if isinstance(body, PostFormsJsonBodyType0 | PostFormsJsonBodyType1 | PostFormsJsonBodyType2 | PostFormsJsonBodyType3 | PostFormsJsonBodyType4 | PostFormsJsonBodyType5):
        
        if isinstance(body, PostFormsJsonBodyType0):
            _kwargs["json"] = body.to_dict()
        elif isinstance(body, PostFormsJsonBodyType1):
            _kwargs["json"] = body.to_dict()
        elif isinstance(body, PostFormsJsonBodyType2):
            _kwargs["json"] = body.to_dict()
        elif isinstance(body, PostFormsJsonBodyType3):
            _kwargs["json"] = body.to_dict()
        elif isinstance(body, PostFormsJsonBodyType4):
            _kwargs["json"] = body.to_dict()
        else:
            _kwargs["json"] = body.to_dict()


        headers["Content-Type"] = "application/json"
    if isinstance(body, PostFormsFilesBody):
        _kwargs["files"] = body.to_multipart()

        headers["Content-Type"] = "multipart/form-data; boundary=+++"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | FormAnswer | None:
    if response.status_code == 201:
        response_201 = FormAnswer.from_dict(response.json())



        return response_201

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | FormAnswer]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body:    PostFormsJsonBodyType0 | PostFormsJsonBodyType1 | PostFormsJsonBodyType2 | PostFormsJsonBodyType3 | PostFormsJsonBodyType4 | PostFormsJsonBodyType5  |     PostFormsFilesBody  | Unset = UNSET,
    title: str | Unset = UNSET,
    mode: PostFormsMode | Unset = UNSET,
    unlock: PostFormsUnlock | Unset = UNSET,
    detect: PostFormsDetect | Unset = UNSET,
    x_doc_password: str | Unset = UNSET,

) -> Response[Error | FormAnswer]:
    """ Create a form from any PDF source, with placed or detected fields

    Args:
        title (str | Unset):
        mode (PostFormsMode | Unset):
        unlock (PostFormsUnlock | Unset):
        detect (PostFormsDetect | Unset):
        x_doc_password (str | Unset):
        body (PostFormsJsonBodyType0 | PostFormsJsonBodyType1 | PostFormsJsonBodyType2 |
            PostFormsJsonBodyType3 | PostFormsJsonBodyType4 | PostFormsJsonBodyType5): A create's or
            replace's JSON body: exactly one source member, plus what goes with it.
            Every member any such endpoint reads is here; an endpoint reads those of its kind
            ([`Endpoint::members`]) and refuses the others. `null` stands for absent.
        body (PostFormsFilesBody): one file part: `file`, its media type from a `type` part, its
            Content-Type or its file name

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | FormAnswer]
     """


    kwargs = _get_kwargs(
        body=body,
title=title,
mode=mode,
unlock=unlock,
detect=detect,
x_doc_password=x_doc_password,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body:    PostFormsJsonBodyType0 | PostFormsJsonBodyType1 | PostFormsJsonBodyType2 | PostFormsJsonBodyType3 | PostFormsJsonBodyType4 | PostFormsJsonBodyType5  |     PostFormsFilesBody  | Unset = UNSET,
    title: str | Unset = UNSET,
    mode: PostFormsMode | Unset = UNSET,
    unlock: PostFormsUnlock | Unset = UNSET,
    detect: PostFormsDetect | Unset = UNSET,
    x_doc_password: str | Unset = UNSET,

) -> Error | FormAnswer | None:
    """ Create a form from any PDF source, with placed or detected fields

    Args:
        title (str | Unset):
        mode (PostFormsMode | Unset):
        unlock (PostFormsUnlock | Unset):
        detect (PostFormsDetect | Unset):
        x_doc_password (str | Unset):
        body (PostFormsJsonBodyType0 | PostFormsJsonBodyType1 | PostFormsJsonBodyType2 |
            PostFormsJsonBodyType3 | PostFormsJsonBodyType4 | PostFormsJsonBodyType5): A create's or
            replace's JSON body: exactly one source member, plus what goes with it.
            Every member any such endpoint reads is here; an endpoint reads those of its kind
            ([`Endpoint::members`]) and refuses the others. `null` stands for absent.
        body (PostFormsFilesBody): one file part: `file`, its media type from a `type` part, its
            Content-Type or its file name

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | FormAnswer
     """


    return sync_detailed(
        client=client,
body=body,
title=title,
mode=mode,
unlock=unlock,
detect=detect,
x_doc_password=x_doc_password,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body:    PostFormsJsonBodyType0 | PostFormsJsonBodyType1 | PostFormsJsonBodyType2 | PostFormsJsonBodyType3 | PostFormsJsonBodyType4 | PostFormsJsonBodyType5  |     PostFormsFilesBody  | Unset = UNSET,
    title: str | Unset = UNSET,
    mode: PostFormsMode | Unset = UNSET,
    unlock: PostFormsUnlock | Unset = UNSET,
    detect: PostFormsDetect | Unset = UNSET,
    x_doc_password: str | Unset = UNSET,

) -> Response[Error | FormAnswer]:
    """ Create a form from any PDF source, with placed or detected fields

    Args:
        title (str | Unset):
        mode (PostFormsMode | Unset):
        unlock (PostFormsUnlock | Unset):
        detect (PostFormsDetect | Unset):
        x_doc_password (str | Unset):
        body (PostFormsJsonBodyType0 | PostFormsJsonBodyType1 | PostFormsJsonBodyType2 |
            PostFormsJsonBodyType3 | PostFormsJsonBodyType4 | PostFormsJsonBodyType5): A create's or
            replace's JSON body: exactly one source member, plus what goes with it.
            Every member any such endpoint reads is here; an endpoint reads those of its kind
            ([`Endpoint::members`]) and refuses the others. `null` stands for absent.
        body (PostFormsFilesBody): one file part: `file`, its media type from a `type` part, its
            Content-Type or its file name

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | FormAnswer]
     """


    kwargs = _get_kwargs(
        body=body,
title=title,
mode=mode,
unlock=unlock,
detect=detect,
x_doc_password=x_doc_password,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body:    PostFormsJsonBodyType0 | PostFormsJsonBodyType1 | PostFormsJsonBodyType2 | PostFormsJsonBodyType3 | PostFormsJsonBodyType4 | PostFormsJsonBodyType5  |     PostFormsFilesBody  | Unset = UNSET,
    title: str | Unset = UNSET,
    mode: PostFormsMode | Unset = UNSET,
    unlock: PostFormsUnlock | Unset = UNSET,
    detect: PostFormsDetect | Unset = UNSET,
    x_doc_password: str | Unset = UNSET,

) -> Error | FormAnswer | None:
    """ Create a form from any PDF source, with placed or detected fields

    Args:
        title (str | Unset):
        mode (PostFormsMode | Unset):
        unlock (PostFormsUnlock | Unset):
        detect (PostFormsDetect | Unset):
        x_doc_password (str | Unset):
        body (PostFormsJsonBodyType0 | PostFormsJsonBodyType1 | PostFormsJsonBodyType2 |
            PostFormsJsonBodyType3 | PostFormsJsonBodyType4 | PostFormsJsonBodyType5): A create's or
            replace's JSON body: exactly one source member, plus what goes with it.
            Every member any such endpoint reads is here; an endpoint reads those of its kind
            ([`Endpoint::members`]) and refuses the others. `null` stands for absent.
        body (PostFormsFilesBody): one file part: `file`, its media type from a `type` part, its
            Content-Type or its file name

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | FormAnswer
     """


    return (await asyncio_detailed(
        client=client,
body=body,
title=title,
mode=mode,
unlock=unlock,
detect=detect,
x_doc_password=x_doc_password,

    )).parsed
