"""The endpoint check ``eai-gym evaluate`` makes before its first request.

``GET {base_url}/models`` (with the key) tells in one cheap call whether anything listens at the URL (a
refused connection, a name that does not resolve, no answer within the timeout: stop), whether the key is
accepted (401/403: stop) and which models the endpoint serves. An endpoint without a models route (404 or
another client error there, or a body that is no model list) is asked one chat completion of one token
instead; so is one whose list lacks the model (many local servers accept any name). The run starts when that
reply comes, or when the failure is one its retries may mend (429, 5xx); it stops, with the URL and the
cause, when the chat route is missing too or the model is unknown.
"""

from __future__ import annotations

from typing import Any

from .errors import FatalRequestError, describe_error

#: seconds the check waits for an answer at most (less when ``--request-timeout`` is shorter)
PROBE_TIMEOUT_S = 30.0


def _key_hint(has_key: bool) -> str:
    return ("" if has_key else " (no API key is set: export it in $OPENAI_API_KEY, or name the variable "
                                      "holding it with --api-key-env)")


def check_endpoint(api: Any, url: str, timeout_s: float, has_key: bool, models: list[str]) -> list[str]:
    """Check that the endpoint ``url`` behind ``api`` (an ``openai.OpenAI``) answers within ``timeout_s`` and
    accepts the key and ``models``. Returns notes for the user; raises :class:`.errors.FatalRequestError`
    naming the URL and the cause when no run could succeed."""
    import openai

    quick = api.with_options(timeout=timeout_s, max_retries=0)
    listed: list[str] | None = None
    try:
        page = quick.models.list()
        data = getattr(page, "data", None)
        if isinstance(data, list):
            listed = [str(getattr(m, "id", m)) for m in data]
    except (openai.AuthenticationError, openai.PermissionDeniedError) as e:
        raise FatalRequestError(f"{url} refused the API key ({describe_error(e)}){_key_hint(has_key)}") from None
    except openai.APITimeoutError:
        raise FatalRequestError(f"{url} did not answer within {quick.timeout} s (GET {url}/models); is it the "
                                f"right URL, and is the server up? (--request-timeout sets the wait)") from None
    except openai.APIConnectionError as e:
        raise FatalRequestError(f"cannot reach {url}: {describe_error(e)}; is the server running, and is "
                                f"--base-url right?") from None
    except openai.APIStatusError as e:
        if e.status_code == 429 or e.status_code >= 500:
            return [f"{url}/models answered {describe_error(e)}; starting anyway (requests are retried)"]
    except Exception:  # noqa: BLE001 - a body that is not a model list: ask the chat route instead
        pass
    wanted = list(dict.fromkeys(models))
    if listed is not None and all(m in listed for m in wanted):
        return []
    notes = []
    for model in wanted:
        try:
            quick.chat.completions.create(model=model, messages=[{"role": "user", "content": "Say OK."}],
                                          max_tokens=1)
        except (openai.AuthenticationError, openai.PermissionDeniedError) as e:
            raise FatalRequestError(f"{url} refused the API key ({describe_error(e)}){_key_hint(has_key)}") from None
        except openai.NotFoundError as e:
            if listed is not None:
                raise FatalRequestError(f"{url} does not serve the model {model!r} ({describe_error(e)}); it serves: "
                                        f"{', '.join(listed[:20]) or 'no models'}") from None
            raise FatalRequestError(f"{url} has no OpenAI-compatible chat route (HTTP 404 on {url}/models and on "
                                    f"{url}/chat/completions: {describe_error(e)}); check --base-url (it usually "
                                    f"ends in /v1) and --model") from None
        except openai.APITimeoutError:
            notes.append(f"{url}: a one-token test request for {model!r} got no reply within {quick.timeout} s; "
                         f"starting anyway")
        except openai.APIConnectionError as e:
            raise FatalRequestError(f"cannot reach {url}: {describe_error(e)}") from None
        except openai.APIStatusError as e:
            notes.append(f"{url}: a one-token test request for {model!r} got {describe_error(e)}; starting anyway")
        except Exception as e:  # noqa: BLE001 - a reply body that is not a chat completion: the run retries those
            notes.append(f"{url}: a one-token test request for {model!r} gave an unreadable reply "
                         f"({type(e).__name__}); starting anyway")
    return notes
